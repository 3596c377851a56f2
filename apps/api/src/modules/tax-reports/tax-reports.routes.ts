import { z } from 'zod/v4';
import { read } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { TaxReport, TaxReportQuery } from './tax-reports.schemas.js';
import { taxReportCsv } from './tax-reports.serializer.js';
import { getTaxReport } from './tax-reports.service.js';

const tags = ['tax'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

/** The tax report of a period per jurisdiction, as JSON and as CSV (an extension: docs/tax.md). */
export const taxReportRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/tax-reports/',
    operationId: 'tax_reports:get',
    summary: 'Tax report of a period, per jurisdiction',
    tags,
    extension: true,
    auth: { subjects, scopes: read('orders') },
    query: TaxReportQuery,
    status: 200,
    response: TaxReport,
    handler: async (ctx, { query }) => getTaxReport(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/tax-reports/csv',
    operationId: 'tax_reports:export',
    summary: 'Tax report of a period, per jurisdiction, as CSV',
    tags,
    extension: true,
    produces: 'text/csv',
    auth: { subjects, scopes: read('orders') },
    query: TaxReportQuery,
    status: 200,
    response: z.string(),
    handler: async (ctx, { query }, reply) => {
      reply.header(
        'content-disposition',
        `attachment; filename="tax-report-${query.start_date}-${query.end_date}.csv"`,
      );
      return taxReportCsv(await getTaxReport(ctx, query));
    },
  }),
];
