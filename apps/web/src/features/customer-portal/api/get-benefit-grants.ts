import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  customerPortalBenefitGrantsList,
  type CustomerPortalBenefitGrantsListRequest,
  type TesseraCore,
} from '@tessera/sdk';
import { usePortalSession } from '../session/portal-session';

export async function getBenefitGrants(client: TesseraCore, request: CustomerPortalBenefitGrantsListRequest) {
  return (await customerPortalBenefitGrantsList(client, request)).result;
}

export function getBenefitGrantsQueryOptions(
  sessionKey: readonly unknown[],
  client: TesseraCore,
  request: CustomerPortalBenefitGrantsListRequest,
) {
  return queryOptions({
    queryKey: [...sessionKey, 'benefit-grants', 'list', request],
    queryFn: () => getBenefitGrants(client, request),
    placeholderData: keepPreviousData,
  });
}

export function useBenefitGrants(request: CustomerPortalBenefitGrantsListRequest) {
  const { queryKey, client } = usePortalSession();
  return useQuery(getBenefitGrantsQueryOptions(queryKey, client, request));
}
