import { queryOptions, useQuery } from '@tanstack/react-query';
import { collectOrders, ORDERS_QUERY_KEY } from './get-orders';

/** Pages of 100 of the customer's orders read at most. */
const MAX_PAGES = 10;

export interface SubscriptionOrdersRequest {
  customerId: string;
  subscriptionId: string;
}

/**
 * The orders of one subscription. The API filters orders by customer but not by subscription, so the
 * customer's orders are read and those of the subscription kept.
 */
export function getSubscriptionOrders({ customerId, subscriptionId }: SubscriptionOrdersRequest) {
  return collectOrders(
    { customer_id: customerId },
    { keep: (order) => order.subscription_id === subscriptionId, maxPages: MAX_PAGES },
  );
}

export function getSubscriptionOrdersQueryOptions(request: SubscriptionOrdersRequest) {
  return queryOptions({
    queryKey: [...ORDERS_QUERY_KEY, 'subscription', request],
    queryFn: () => getSubscriptionOrders(request),
  });
}

export function useSubscriptionOrders(request: SubscriptionOrdersRequest) {
  return useQuery(getSubscriptionOrdersQueryOptions(request));
}
