import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { customerPortalCustomersGetPaymentMethods } from '@tessera/sdk';
import type { PortalClient } from './portal-client';
import { usePortalSession } from '../session/portal-session';

export async function getPaymentMethods(client: PortalClient, request: { page: number; limit: number }) {
  return (await customerPortalCustomersGetPaymentMethods(client.core, request, client.auth)).result;
}

export function paymentMethodsQueryKey(sessionKey: readonly unknown[]) {
  return [...sessionKey, 'payment-methods'] as const;
}

/** The customer's saved payment methods, newest first; `default` marks the one that bills. */
export function usePaymentMethods(request: { page: number; limit: number }) {
  const { queryKey, client } = usePortalSession();
  return useQuery(
    queryOptions({
      queryKey: [...paymentMethodsQueryKey(queryKey), 'list', request],
      queryFn: () => getPaymentMethods(client, request),
      placeholderData: keepPreviousData,
    }),
  );
}
