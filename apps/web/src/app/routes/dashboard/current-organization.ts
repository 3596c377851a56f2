import type { Organization } from '@tessera/sdk';
import { useOutletContext } from 'react-router';

/** The organization of the URL (`/dashboard/:slug/...`), resolved by the organization layout. */
export function useCurrentOrganization(): Organization {
  return useOutletContext<Organization>();
}

export function organizationPath(organization: Organization, path = ''): string {
  return `/dashboard/${organization.slug}${path}`;
}
