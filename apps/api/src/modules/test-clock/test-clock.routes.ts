import { read, write } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { TestClock, TestClockAdvance, TestClockAdvanced, TestClockQuery } from './test-clock.schemas.js';
import { serializeTestClock, serializeTestClockAdvanced } from './test-clock.serializer.js';
import { advanceTestClock, getTestClock } from './test-clock.service.js';

const tags = ['test-clock'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

/**
 * Development tools: an organization's clock, moved forward to show renewals, dunning and expiry in
 * seconds. Outside production only (`NODE_ENV=production`: the routes do not exist). Advancing runs
 * everything that became due: renewals, charges and dunning retries, checkout expiry.
 */
export const testClockRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/test-clock/',
    operationId: 'test_clock:get',
    summary: "Get an organization's test clock (not in production)",
    tags,
    developmentOnly: true,
    auth: { subjects, scopes: read('organizations') },
    query: TestClockQuery,
    status: 200,
    response: TestClock,
    handler: async (ctx, { query }) => serializeTestClock(await getTestClock(ctx, query.organization_id)),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/test-clock/advance',
    operationId: 'test_clock:advance',
    summary: "Advance an organization's test clock and run what became due (not in production)",
    tags,
    developmentOnly: true,
    // Each renewal and charge commits on its own, as the periodic job's do.
    transaction: false,
    auth: { subjects, scopes: write('organizations') },
    body: TestClockAdvance,
    status: 200,
    response: TestClockAdvanced,
    handler: async (ctx, { body }) => serializeTestClockAdvanced(await advanceTestClock(ctx, body)),
  }),
];
