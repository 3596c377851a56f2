import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { customerPortalBenefitGrantsList, type CustomerPortalBenefitGrantsListRequest } from '@tessera/sdk';
import type { PortalClient } from './portal-client';
import { usePortalSession } from '../session/portal-session';

export async function getBenefitGrants(client: PortalClient, request: CustomerPortalBenefitGrantsListRequest) {
  return (await customerPortalBenefitGrantsList(client.core, request, client.auth)).result;
}

export function getBenefitGrantsQueryOptions(
  sessionKey: readonly unknown[],
  client: PortalClient,
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
