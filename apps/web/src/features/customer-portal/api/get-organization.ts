import { queryOptions, useQuery } from '@tanstack/react-query';
import { customerPortalOrganizationsGet } from '@tessera/sdk';
import { createPortalClient } from './portal-client';

// Public: the portal shows whose portal it is before (and without) a session.
const publicClient = createPortalClient();

export function getOrganization(slug: string) {
  return customerPortalOrganizationsGet(publicClient, { slug });
}

export function getOrganizationQueryOptions(slug: string) {
  return queryOptions({
    queryKey: ['customer-portal-organization', slug],
    queryFn: () => getOrganization(slug),
    staleTime: 5 * 60_000,
  });
}

/** The organization and the products it offers (`{organization, products}`). */
export function useOrganization(slug: string) {
  return useQuery(getOrganizationQueryOptions(slug));
}
