import { useMutation, useQueryClient } from '@tanstack/react-query';
import { refundsCreate, type RefundCreate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { REFUNDS_QUERY_KEY } from './get-refunds';

export function createRefund(body: RefundCreate) {
  return refundsCreate(client, { body });
}

/** Refunds an order; the page that composes it refreshes the order (its amounts and status change). */
export function useCreateRefund() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRefund,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: REFUNDS_QUERY_KEY }),
  });
}
