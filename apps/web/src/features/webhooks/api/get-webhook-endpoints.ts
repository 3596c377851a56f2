import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { webhooksListWebhookEndpoints, type WebhooksListWebhookEndpointsRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function getWebhookEndpoints(request: WebhooksListWebhookEndpointsRequest) {
  return (await webhooksListWebhookEndpoints(client, request)).result;
}

export const WEBHOOKS_QUERY_KEY = ['webhooks'] as const;

export function getWebhookEndpointsQueryOptions(request: WebhooksListWebhookEndpointsRequest) {
  return queryOptions({
    queryKey: [...WEBHOOKS_QUERY_KEY, 'endpoints', request],
    queryFn: () => getWebhookEndpoints(request),
    placeholderData: keepPreviousData,
  });
}

export function useWebhookEndpoints(request: WebhooksListWebhookEndpointsRequest) {
  return useQuery(getWebhookEndpointsQueryOptions(request));
}
