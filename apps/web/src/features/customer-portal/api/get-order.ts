import { queryOptions, useQuery } from '@tanstack/react-query';
import { customerPortalOrdersGet } from '@tessera/sdk';
import type { PortalClient } from './portal-client';
import { usePortalSession } from '../session/portal-session';

export function getOrder(client: PortalClient, id: string) {
  return customerPortalOrdersGet(client.core, { id }, client.auth);
}

export function getOrderQueryOptions(sessionKey: readonly unknown[], client: PortalClient, id: string) {
  return queryOptions({ queryKey: [...sessionKey, 'orders', 'detail', id], queryFn: () => getOrder(client, id) });
}

export function useOrder(id: string) {
  const { queryKey, client } = usePortalSession();
  return useQuery(getOrderQueryOptions(queryKey, client, id));
}
