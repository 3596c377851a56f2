import { queryOptions, useQuery } from '@tanstack/react-query';
import { benefitsGrants, type BenefitsGrantsRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { BENEFITS_QUERY_KEY } from './get-benefits';

export async function getBenefitGrants(request: BenefitsGrantsRequest) {
  return (await benefitsGrants(client, request)).result;
}

export function getBenefitGrantsQueryOptions(request: BenefitsGrantsRequest) {
  return queryOptions({
    queryKey: [...BENEFITS_QUERY_KEY, 'grants', request],
    queryFn: () => getBenefitGrants(request),
  });
}

/** The grants of a benefit not (or no longer) delivered: those waiting, with the error when one is recorded. */
export function useUndeliveredBenefitGrants(benefitId: string, enabled: boolean) {
  return useQuery({ ...getBenefitGrantsQueryOptions({ id: benefitId, is_granted: false, limit: 20 }), enabled });
}
