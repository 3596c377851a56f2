import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { customerPortalOrdersList, type CustomerPortalOrdersListRequest, type TesseraCore } from '@tessera/sdk';
import { usePortalSession } from '../session/portal-session';

export async function getOrders(client: TesseraCore, request: CustomerPortalOrdersListRequest) {
  return (await customerPortalOrdersList(client, request)).result;
}

export function getOrdersQueryOptions(
  sessionKey: readonly unknown[],
  client: TesseraCore,
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
