import { read } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { z } from 'zod/v4';
import { MetricsExportQuery, MetricsLimits, MetricsQuery, MetricsResponse } from './metrics.schemas.js';
import { exportMetrics, getLimits, getMetrics } from './metrics.service.js';

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
    path: '/v1/metrics/export',
    operationId: 'metrics:export',
    summary: 'Export metrics as a CSV file',
    tags,
    produces: 'text/csv',
    auth: { subjects, scopes: read('metrics') },
    query: MetricsExportQuery,
    status: 200,
    response: z.string(),
    handler: async (ctx, { query }, reply) => {
      const body = await exportMetrics(ctx, query);
      reply.header('content-disposition', 'attachment; filename="metrics.csv"');
      return body;
    },
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
