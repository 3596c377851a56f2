import { useQuery } from '@tanstack/react-query';
import { customerPortalCustomersGetPaymentMethodProcessor } from '@tessera/sdk';
import type { PortalClient } from './portal-client';
import { usePortalSession } from '../session/portal-session';

export function getPaymentMethodProcessor(client: PortalClient) {
  return customerPortalCustomersGetPaymentMethodProcessor(client.core, {}, client.auth);
}

/** Which card form saves a card: Stripe's Payment Element (with its publishable key) or the simulated one. */
export function usePaymentMethodProcessor() {
  const { queryKey, client } = usePortalSession();
  return useQuery({
    queryKey: [...queryKey, 'payment-methods', 'processor'],
    queryFn: () => getPaymentMethodProcessor(client),
    staleTime: Infinity,
  });
}
