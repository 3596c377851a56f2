import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { customerPortalOrdersList, type CustomerPortalOrdersListRequest } from '@tessera/sdk';
import type { PortalClient } from './portal-client';
import { usePortalSession } from '../session/portal-session';

export async function getOrders(client: PortalClient, request: CustomerPortalOrdersListRequest) {
  return (await customerPortalOrdersList(client.core, request, client.auth)).result;
}

export function getOrdersQueryOptions(
  sessionKey: readonly unknown[],
  client: PortalClient,
  request: CustomerPortalOrdersListRequest,
) {
  return queryOptions({
    queryKey: [...sessionKey, 'orders', 'list', request],
    queryFn: () => getOrders(client, request),
    placeholderData: keepPreviousData,
  });
}

export function useOrders(request: CustomerPortalOrdersListRequest) {
  const { queryKey, client } = usePortalSession();
  return useQuery(getOrdersQueryOptions(queryKey, client, request));
}
