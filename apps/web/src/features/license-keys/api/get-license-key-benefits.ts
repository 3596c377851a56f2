import { queryOptions, useQuery } from '@tanstack/react-query';
import { benefitsList } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { LICENSE_KEYS_QUERY_KEY } from './get-license-keys';

/** The organization's license key benefits, to filter keys by (an organization has a handful; 100 covers them). */
export async function getLicenseKeyBenefits(organizationId: string) {
  const page = await benefitsList(client, {
    organization_id: organizationId,
    type: 'license_keys',
    limit: 100,
    sorting: ['description'],
  });
  return page.result.items;
}

export function getLicenseKeyBenefitsQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: [...LICENSE_KEYS_QUERY_KEY, 'benefits', organizationId],
    queryFn: () => getLicenseKeyBenefits(organizationId),
  });
}

export function useLicenseKeyBenefits(organizationId: string) {
  return useQuery(getLicenseKeyBenefitsQueryOptions(organizationId));
}
