import { queryOptions, useQuery } from '@tanstack/react-query';
import { collectOrders, ORDERS_QUERY_KEY } from './get-orders';

/** Pages of 100 read at most for the revenue chart; a busier window is charted in part, and says so. */
const MAX_PAGES = 10;

/** The organization's orders created at or after `since` (an ISO timestamp), newest first. */
export function getRecentOrders(organizationId: string, since: string) {
  const start = new Date(since).getTime();
  return collectOrders(
    { organization_id: organizationId },
    {
      keep: () => true,
      stop: (order) => new Date(order.created_at).getTime() < start,
      maxPages: MAX_PAGES,
    },
  );
}

export function getRecentOrdersQueryOptions(organizationId: string, since: string) {
  return queryOptions({
    queryKey: [...ORDERS_QUERY_KEY, 'recent', organizationId, since],
    queryFn: () => getRecentOrders(organizationId, since),
  });
}

export function useRecentOrders(organizationId: string, since: string) {
  return useQuery(getRecentOrdersQueryOptions(organizationId, since));
}
