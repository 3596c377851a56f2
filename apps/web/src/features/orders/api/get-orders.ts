import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { hasNextPage, ordersList, type Order, type OrdersListRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function getOrders(request: OrdersListRequest) {
  return (await ordersList(client, request)).result;
}

export const ORDERS_QUERY_KEY = ['orders'] as const;

export function getOrdersQueryOptions(request: OrdersListRequest) {
  return queryOptions({
    queryKey: [...ORDERS_QUERY_KEY, 'list', request],
    queryFn: () => getOrders(request),
    placeholderData: keepPreviousData,
  });
}

export function useOrders(request: OrdersListRequest) {
  return useQuery(getOrdersQueryOptions(request));
}

export interface CollectedOrders {
  orders: Order[];
  /** False when `maxPages` ran out before the end: the orders are the most recent ones only. */
  isComplete: boolean;
}

export interface CollectOptions {
  /** Keeps the orders this accepts. */
  keep(order: Order): boolean;
  /** Stops at the first order this accepts (newest first: an order older than a window, say). */
  stop?(order: Order): boolean;
  /** Pages of 100 read at most, so one page view never walks an unbounded history. */
  maxPages: number;
}

const PAGE_SIZE = 100;

/** Reads orders newest first, page after page, for views the API has no filter for. */
export async function collectOrders(request: OrdersListRequest, options: CollectOptions): Promise<CollectedOrders> {
  const orders: Order[] = [];
  let page = await ordersList(client, { ...request, sorting: ['-created_at'], limit: PAGE_SIZE, page: 1 });
  for (let read = 1; ; read += 1) {
    for (const order of page.result.items) {
      if (options.stop?.(order)) return { orders, isComplete: true };
      if (options.keep(order)) orders.push(order);
    }
    if (read === options.maxPages) return { orders, isComplete: !hasNextPage(page.result, read, PAGE_SIZE) };
    const next = await page.next();
    if (!next) return { orders, isComplete: true };
    page = next;
  }
}
