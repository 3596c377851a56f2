import { queryOptions, useQuery } from '@tanstack/react-query';
import { customerPortalCustomersGet, type TesseraCore } from '@tessera/sdk';
import { usePortalSession } from '../session/portal-session';

export function getCustomer(client: TesseraCore) {
  return customerPortalCustomersGet(client);
}

export function customerQueryKey(sessionKey: readonly unknown[]) {
  return [...sessionKey, 'customer'] as const;
}

export function getCustomerQueryOptions(sessionKey: readonly unknown[], client: TesseraCore) {
  return queryOptions({ queryKey: customerQueryKey(sessionKey), queryFn: () => getCustomer(client) });
}

/** The customer of the session; the portal layout reads it first, so a refused token shows at once. */
export function useCustomer() {
  const { queryKey, client } = usePortalSession();
  return useQuery(getCustomerQueryOptions(queryKey, client));
}
