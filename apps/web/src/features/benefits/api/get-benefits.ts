import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { benefitsList, type BenefitsListRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function getBenefits(request: BenefitsListRequest) {
  return (await benefitsList(client, request)).result;
}

export const BENEFITS_QUERY_KEY = ['benefits'] as const;

export function getBenefitsQueryOptions(request: BenefitsListRequest) {
  return queryOptions({
    queryKey: [...BENEFITS_QUERY_KEY, 'list', request],
    queryFn: () => getBenefits(request),
    placeholderData: keepPreviousData,
  });
}

export function useBenefits(request: BenefitsListRequest) {
  return useQuery(getBenefitsQueryOptions(request));
}
