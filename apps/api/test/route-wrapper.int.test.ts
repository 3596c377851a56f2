import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { PUBLIC } from '../src/platform/auth/subject.js';
import { BadRequest } from '../src/platform/http/errors.js';
import { CommitThenFail, defineRoute } from '../src/platform/http/route.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { json, startTestServer, type TestServer } from './harness.js';

/** Capabilities of the route wrapper that business routes rely on, tested on routes of their own. */
let server: TestServer;
let acme: OrganizationFixture;

const marker = z.object({ organization_id: z.uuid(), mode: z.enum(['commit-then-fail', 'fail', 'ok']) });

const probeRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v1/test-probe/events',
    operationId: 'test:events',
    summary: 'Records an event, then succeeds or fails',
    tags: ['test'],
    auth: PUBLIC,
    body: marker,
    internal: true,
    status: 200,
    response: z.object({ ok: z.boolean() }),
    handler: async (ctx, { body }) => {
      await ctx.db
        .insertInto('webhook_events')
        .values({
          id: randomUUID(),
          created_at: ctx.clock.now(),
          organization_id: body.organization_id,
          type: 'organization.updated',
          payload: JSON.stringify({ probe: body.mode }),
        })
        .execute();
      if (body.mode === 'commit-then-fail') throw new CommitThenFail(new BadRequest('kept, then refused'));
      if (body.mode === 'fail') throw new BadRequest('rolled back');
      return { ok: true };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/test-probe/redirect',
    operationId: 'test:redirect',
    summary: 'Redirects',
    tags: ['test'],
    auth: PUBLIC,
    internal: true,
    status: 200,
    response: z.object({}),
    handler: async (_ctx, _input, reply) => {
      reply.redirect('https://shop.example/checkout/abc?x=1', 307);
      return {};
    },
  }),
];

beforeAll(async () => {
  server = await startTestServer({ extraRoutes: probeRoutes });
  acme = await organizationFactory(server);
});
afterAll(() => server?.stop());

async function probes(mode: string): Promise<number> {
  const rows = await server.runtime.database.db
    .selectFrom('webhook_events')
    .select('payload')
    .where('organization_id', '=', acme.organization.id)
    .execute();
  return rows.filter((row) => (row.payload as { probe?: string }).probe === mode).length;
}

describe('route wrapper', () => {
  it('commits the writes of a CommitThenFail, then answers its error', async () => {
    const response = await server.inject({
      method: 'POST',
      url: '/v1/test-probe/events',
      payload: { organization_id: acme.organization.id, mode: 'commit-then-fail' },
    });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({ error: 'BadRequest', detail: 'kept, then refused' });
    expect(await probes('commit-then-fail')).toBe(1);
  });

  it('rolls back the writes of any other error', async () => {
    const response = await server.inject({
      method: 'POST',
      url: '/v1/test-probe/events',
      payload: { organization_id: acme.organization.id, mode: 'fail' },
    });
    expect(response.statusCode).toBe(400);
    expect(await probes('fail')).toBe(0);
  });

  it('answers a redirect instead of a body', async () => {
    const response = await server.inject({ method: 'GET', url: '/v1/test-probe/redirect' });
    expect(response.statusCode).toBe(307);
    expect(response.headers.location).toBe('https://shop.example/checkout/abc?x=1');
  });

  it('keeps internal routes out of the OpenAPI document', async () => {
    const document = json(await server.inject({ method: 'GET', url: '/openapi.json' }));
    expect(Object.keys(document.paths).some((path) => path.startsWith('/v1/test-probe'))).toBe(false);
  });
});
