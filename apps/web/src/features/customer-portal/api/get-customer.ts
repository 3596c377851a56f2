import { queryOptions, useQuery } from '@tanstack/react-query';
import { customerPortalCustomersGet } from '@tessera/sdk';
import type { PortalClient } from './portal-client';
import { usePortalSession } from '../session/portal-session';

export function getCustomer(client: PortalClient) {
  return customerPortalCustomersGet(client.core, {}, client.auth);
}

export function customerQueryKey(sessionKey: readonly unknown[]) {
  return [...sessionKey, 'customer'] as const;
}

export function getCustomerQueryOptions(sessionKey: readonly unknown[], client: PortalClient) {
  return queryOptions({ queryKey: customerQueryKey(sessionKey), queryFn: () => getCustomer(client) });
}

/** The customer of the session; the portal layout reads it first, so a refused token shows at once. */
export function useCustomer() {
  const { queryKey, client } = usePortalSession();
  return useQuery(getCustomerQueryOptions(queryKey, client));
}
