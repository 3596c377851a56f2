import { read } from '../../platform/auth/scopes.js';
import { mapPage } from '../../platform/http/query.js';
import { defineRoute } from '../../platform/http/route.js';
import { EmailListQuery, ListResourceOutboxEmail } from './emails.schemas.js';
import { serializeOutboxEmail } from './emails.serializer.js';
import { listOrganizationEmails } from './emails.service.js';

/**
 * Development tool: the organization's email outbox (what was sent, or kept locally when no SMTP_URL
 * is set), shown on the dashboard's development page. Outside production only, like the test clock;
 * `tessera mail list` reads the same rows on any server.
 */
export const emailRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/emails/',
    operationId: 'emails:list',
    summary: "List an organization's outgoing emails (not in production)",
    tags: ['emails'],
    developmentOnly: true,
    auth: { subjects: ['user', 'organization'], scopes: read('organizations') },
    query: EmailListQuery,
    status: 200,
    response: ListResourceOutboxEmail,
    handler: async (ctx, { query }) => mapPage(await listOrganizationEmails(ctx, query), serializeOutboxEmail),
  }),
];
