import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { webhooksListWebhookDeliveries, type WebhooksListWebhookDeliveriesRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { WEBHOOKS_QUERY_KEY } from './get-webhook-endpoints';

/** Deliveries are sent by the worker after the page loaded, so the log refreshes itself while shown. */
const REFRESH_MS = 3_000;

export async function getWebhookDeliveries(request: WebhooksListWebhookDeliveriesRequest) {
  return (await webhooksListWebhookDeliveries(client, request)).result;
}

export function getWebhookDeliveriesQueryOptions(request: WebhooksListWebhookDeliveriesRequest) {
  return queryOptions({
    queryKey: [...WEBHOOKS_QUERY_KEY, 'deliveries', request],
    queryFn: () => getWebhookDeliveries(request),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
}

export function useWebhookDeliveries(request: WebhooksListWebhookDeliveriesRequest) {
  return useQuery(getWebhookDeliveriesQueryOptions(request));
}
