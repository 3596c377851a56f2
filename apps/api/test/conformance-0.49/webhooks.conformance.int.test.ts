import { Polar } from '@polar-sh/sdk-0.49';
import { ResourceNotFound } from '@polar-sh/sdk-0.49/models/errors/resourcenotfound.js';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/platform/clock.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { emitWebhookEvent, plainHeaders, WebhookReceiver, webhookEndpointFactory } from '../factories/webhooks.js';
import { startTestServer, type TestServer } from '../harness.js';
import { withZodIssues } from './issues.js';

/** `webhooks.resetWebhookEndpointSecret` through `@polar-sh/sdk@0.49`. */
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

describe('webhooks through @polar-sh/sdk@0.49', () => {
  it('resetWebhookEndpointSecret answers the new secret, which signs the next delivery', async () => {
    const endpoint = await webhookEndpointFactory(server, acme.organization.id, {
      url: `${receiver.url}/hook`,
      events: ['product.created'],
    });
    const reset = await withZodIssues(() => polar.webhooks.resetWebhookEndpointSecret({ id: endpoint.id }));
    expect(reset).toMatchObject({ id: endpoint.id, organizationId: acme.organization.id, enabled: true });
    expect(reset.secret).toMatch(/^whsec_/);

    await emitWebhookEvent(server, acme.organization.id, 'product.created', { id: 'p1' });
    await expect.poll(() => receiver.received.length, { timeout: 20_000, interval: 50 }).toBe(1);
    const [request] = receiver.received;
    const verifier = new Webhook(Buffer.from(reset.secret, 'utf8').toString('base64'));
    expect(verifier.verify(request!.body, plainHeaders(request!.headers))).toEqual({
      type: 'product.created',
      data: { id: 'p1' },
    });

    await expect(
      polar.webhooks.resetWebhookEndpointSecret({ id: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toBeInstanceOf(ResourceNotFound);
  });
});
