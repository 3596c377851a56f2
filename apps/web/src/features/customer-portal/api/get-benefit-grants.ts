import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { customerPortalBenefitGrantsList, type CustomerPortalBenefitGrantsListRequest } from '@tessera/sdk';
import type { CustomerBenefitGrant } from '@tessera/sdk';
import type { PortalClient } from './portal-client';
import { usePortalSession } from '../session/portal-session';

export async function getBenefitGrants(client: PortalClient, request: CustomerPortalBenefitGrantsListRequest) {
  return (await customerPortalBenefitGrantsList(client.core, request, client.auth)).result;
}

function isBeingDelivered(grant: CustomerBenefitGrant): boolean {
  if (grant.benefit.type !== 'discord' && grant.benefit.type !== 'github_repository') return false;
  return !grant.is_granted && !grant.is_revoked && Boolean((grant.properties as { account_id?: string }).account_id);
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
    // A Discord or GitHub grant whose account was chosen is being delivered by the server: watch it arrive.
    refetchInterval: (query) => (query.state.data?.items.some(isBeingDelivered) ? 2000 : false),
  });
}

export function useBenefitGrants(request: CustomerPortalBenefitGrantsListRequest) {
  const { queryKey, client } = usePortalSession();
  return useQuery(getBenefitGrantsQueryOptions(queryKey, client, request));
}
