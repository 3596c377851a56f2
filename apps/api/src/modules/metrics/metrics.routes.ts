import { read } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { MetricsLimits, MetricsQuery, MetricsResponse } from './metrics.schemas.js';
import { getLimits, getMetrics } from './metrics.service.js';

const tags = ['metrics'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

export const metricRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/metrics/',
    operationId: 'metrics:get',
    summary: 'Get Metrics',
    tags,
    auth: { subjects, scopes: read('metrics') },
    query: MetricsQuery,
    status: 200,
    response: MetricsResponse,
    handler: async (ctx, { query }) => getMetrics(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/metrics/limits',
    operationId: 'metrics:limits',
    summary: 'Get Metrics Limits',
    tags,
    auth: { subjects, scopes: read('metrics') },
    status: 200,
    response: MetricsLimits,
    handler: async () => getLimits(),
  }),
];
