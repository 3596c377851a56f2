import { queryOptions, useQuery } from '@tanstack/react-query';
import { webhooksGetWebhookEndpoint } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { WEBHOOKS_QUERY_KEY } from './get-webhook-endpoints';

export function getWebhookEndpoint(id: string) {
  return webhooksGetWebhookEndpoint(client, { id });
}

export function getWebhookEndpointQueryOptions(id: string) {
  return queryOptions({ queryKey: [...WEBHOOKS_QUERY_KEY, 'endpoint', id], queryFn: () => getWebhookEndpoint(id) });
}

export function useWebhookEndpoint(id: string) {
  return useQuery(getWebhookEndpointQueryOptions(id));
}
