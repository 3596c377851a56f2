import { queryOptions, useQuery } from '@tanstack/react-query';
import { benefitsList, type Benefit } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { BENEFITS_QUERY_KEY } from './get-benefits';

/** Every benefit of the organization, by description, for pickers (the API pages by 100 at most). */
export async function getAllBenefits(organizationId: string): Promise<Benefit[]> {
  const benefits: Benefit[] = [];
  const first = await benefitsList(client, { organization_id: organizationId, limit: 100, sorting: ['description'] });
  for await (const page of first) benefits.push(...page.result.items);
  return benefits;
}

export function getAllBenefitsQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: [...BENEFITS_QUERY_KEY, 'all', organizationId],
    queryFn: () => getAllBenefits(organizationId),
  });
}

export function useAllBenefits(organizationId: string) {
  return useQuery(getAllBenefitsQueryOptions(organizationId));
}
