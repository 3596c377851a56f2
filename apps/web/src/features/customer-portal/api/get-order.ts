import { queryOptions, useQuery } from '@tanstack/react-query';
import { customerPortalOrdersGet, type TesseraCore } from '@tessera/sdk';
import { usePortalSession } from '../session/portal-session';

export function getOrder(client: TesseraCore, id: string) {
  return customerPortalOrdersGet(client, { id });
}

export function getOrderQueryOptions(sessionKey: readonly unknown[], client: TesseraCore, id: string) {
  return queryOptions({ queryKey: [...sessionKey, 'orders', 'detail', id], queryFn: () => getOrder(client, id) });
}

export function useOrder(id: string) {
  const { queryKey, client } = usePortalSession();
  return useQuery(getOrderQueryOptions(queryKey, client, id));
}
