import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { metricsGet, type MetricsGetRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function getMetrics(request: MetricsGetRequest) {
  return metricsGet(client, request);
}

export const METRICS_QUERY_KEY = ['metrics'] as const;

export function getMetricsQueryOptions(request: MetricsGetRequest) {
  return queryOptions({
    queryKey: [...METRICS_QUERY_KEY, request],
    queryFn: () => getMetrics(request),
    placeholderData: keepPreviousData,
  });
}

/** The organization's metrics per period (`GET /v1/metrics/`). */
export function useMetrics(request: MetricsGetRequest) {
  return useQuery(getMetricsQueryOptions(request));
}
