import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/platform/clock.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { plainHeaders, WebhookReceiver, webhookEndpointFactory } from './factories/webhooks.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

/** POST /v1/webhooks/endpoints/{id}/test (extension): a test event through the normal delivery pipeline. */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;
let target: WebhookReceiver;
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const POLL = { timeout: 20_000, interval: 50 };

beforeAll(async () => {
  server = await startTestServer({ clock: systemClock });
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
  target = await new WebhookReceiver().start();
});
afterAll(async () => {
  await server?.stop();
  await target?.stop();
});

const sendTest = (id: string, token?: string) =>
  server.inject({ method: 'POST', url: `/v1/webhooks/endpoints/${id}/test`, headers: token ? bearer(token) : {} });

async function endpointEventCount(endpointId: string): Promise<number> {
  const row = await server.runtime.database.db
    .selectFrom('webhook_endpoint_events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('POST /v1/webhooks/endpoints/{id}/test', () => {
  it('answers 401 without a token, 403 without webhooks:write, 404 for another organization, 422 for a bad id', async () => {
    const endpoint = await webhookEndpointFactory(server, acme.organization.id);
    const foreign = await webhookEndpointFactory(server, other.organization.id);
    expect((await sendTest(endpoint.id)).statusCode).toBe(401);
    const readOnly = await tokenFactory(server, acme.organization.id, ['webhooks:read']);
    expect((await sendTest(endpoint.id, readOnly)).statusCode).toBe(403);
    const notFound = await sendTest(foreign.id, acme.token);
    expect(notFound.statusCode).toBe(404);
    expect(json(notFound).error).toBe('ResourceNotFound');
    expect((await sendTest('not-a-uuid', acme.token)).statusCode).toBe(422);
    expect(await endpointEventCount(endpoint.id)).toBe(0);
    expect(await endpointEventCount(foreign.id)).toBe(0);
  });

  it('delivers a signed webhook.test event to that endpoint only and lists the attempt', async () => {
    const endpoint = await webhookEndpointFactory(server, acme.organization.id, {
      url: `${target.url}/hook`,
      secret: SECRET,
      events: ['order.paid'],
    });
    const bystander = await webhookEndpointFactory(server, acme.organization.id, {
      url: `${target.url}/other`,
      events: ['order.paid'],
    });
    const response = await sendTest(endpoint.id, acme.token);
    expect(response.statusCode).toBe(202);
    const { webhook_event_id } = json(response);

    await expect.poll(() => target.ofType('webhook.test').length, POLL).toBe(1);
    const request = target.ofType('webhook.test')[0]!;
    const headers = plainHeaders(request.headers);
    expect(headers['webhook-id']).toBe(webhook_event_id);
    new Webhook(Buffer.from(SECRET, 'utf8').toString('base64')).verify(request.body, headers);
    expect(JSON.parse(request.body).data).toMatchObject({
      endpoint_id: endpoint.id,
      organization_id: acme.organization.id,
    });

    const deliveries = async () =>
      json(
        await server.inject({
          method: 'GET',
          url: `/v1/webhooks/deliveries?endpoint_id=${endpoint.id}`,
          headers: bearer(acme.token),
        }),
      ).items as { succeeded: boolean; webhook_event: { id: string } }[];
    await expect.poll(async () => (await deliveries()).length, POLL).toBe(1);
    expect((await deliveries())[0]).toMatchObject({ succeeded: true, webhook_event: { id: webhook_event_id } });
    expect(await endpointEventCount(bystander.id)).toBe(0);
  });
});
