import { Polar } from '@polar-sh/sdk';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/platform/clock.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { emitWebhookEvent, WebhookReceiver } from '../factories/webhooks.js';
import { startTestServer, type TestServer } from '../harness.js';

let server: TestServer;
let acme: OrganizationFixture;
let polar: Polar;
let receiver: WebhookReceiver;

beforeAll(async () => {
  server = await startTestServer({ listen: true, clock: systemClock });
  acme = await organizationFactory(server, { name: 'Acme' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
  receiver = await new WebhookReceiver().start();
});
afterAll(async () => {
  await server?.stop();
  await receiver?.stop();
});

describe('webhooks through @polar-sh/sdk', () => {
  it('creates, gets, lists, updates and deletes endpoints', async () => {
    const created = await polar.webhooks.createWebhookEndpoint({
      url: `${receiver.url}/hook`,
      format: 'raw',
      secret: 'whsec_conformance',
      events: ['order.paid', 'customer.created'],
    });
    expect(created).toMatchObject({
      url: `${receiver.url}/hook`,
      format: 'raw',
      organizationId: acme.organization.id,
      events: ['order.paid', 'customer.created'],
    });
    expect(created.createdAt).toBeInstanceOf(Date);
    expect(created.modifiedAt).toBeNull();

    expect(await polar.webhooks.getWebhookEndpoint({ id: created.id })).toEqual(created);

    const second = await polar.webhooks.createWebhookEndpoint({
      url: `${receiver.url}/other`,
      format: 'discord',
      secret: 's',
      events: [],
      organizationId: undefined,
    });
    const pages = [];
    for await (const page of await polar.webhooks.listWebhookEndpoints({
      organizationId: acme.organization.id,
      limit: 1,
    }))
      pages.push(page.result.items.map((e) => e.id));
    expect(pages.flat().sort()).toEqual([created.id, second.id].sort());
    expect(pages).toHaveLength(2);

    const updated = await polar.webhooks.updateWebhookEndpoint({
      id: created.id,
      webhookEndpointUpdate: { format: 'slack', events: ['refund.created'] },
    });
    expect(updated).toMatchObject({ format: 'slack', events: ['refund.created'] });
    expect(updated.modifiedAt).toBeInstanceOf(Date);

    await polar.webhooks.deleteWebhookEndpoint({ id: second.id });
    await expect(polar.webhooks.getWebhookEndpoint({ id: second.id })).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(polar.webhooks.deleteWebhookEndpoint({ id: second.id })).rejects.toBeInstanceOf(ResourceNotFound);
  });

  it('answers 422 in the SDK error shape', async () => {
    await expect(
      polar.webhooks.createWebhookEndpoint({ url: 'nope', format: 'raw', secret: 'x', events: [] }),
    ).rejects.toBeInstanceOf(HTTPValidationError);
  });

  it('lists deliveries and redelivers an event', async () => {
    const endpoint = await polar.webhooks.createWebhookEndpoint({
      url: `${receiver.url}/deliveries`,
      format: 'raw',
      secret: 'whsec_conformance',
      events: ['product.created'],
    });
    await emitWebhookEvent(server, acme.organization.id, 'product.created', { id: 'p1' });
    const deliveries = async () =>
      (await polar.webhooks.listWebhookDeliveries({ endpointId: endpoint.id })).result.items;
    await expect.poll(async () => (await deliveries()).length, { timeout: 20_000, interval: 100 }).toBe(1);
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({ httpCode: 200, succeeded: true });
    expect(delivery!.webhookEvent).toMatchObject({ lastHttpCode: 200, succeeded: true });
    expect(JSON.parse(delivery!.webhookEvent.payload)).toEqual({ type: 'product.created', data: { id: 'p1' } });

    const accepted = await polar.webhooks.redeliverWebhookEvent({ id: delivery!.webhookEvent.id });
    expect(accepted).toEqual({});
    await expect.poll(async () => (await deliveries()).length, { timeout: 20_000, interval: 100 }).toBe(2);
    await expect(
      polar.webhooks.redeliverWebhookEvent({ id: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toBeInstanceOf(ResourceNotFound);
  });
});
