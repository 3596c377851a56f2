import { Discount$inboundSchema } from '@polar-sh/sdk-0.49/models/components/discount.js';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/platform/clock.js';
import { LATER_WEBHOOK_EVENT_TYPES } from '../src/modules/webhooks/webhooks.event-types.js';
import type { OrganizationFixture } from './factories/organizations.js';
import { subscriptionFactory } from './factories/subscriptions.js';
import { plainHeaders, WebhookReceiver, webhookEndpointFactory } from './factories/webhooks.js';
import { startTestServer, type TestServer } from './harness.js';
import { billingScenario } from './support/billing-scenario.js';

/**
 * The reference's webhook types since API 2026-10, each emitted when the reference emits it and
 * delivered, signed, to an endpoint that subscribed to it by name, with the resource as the API
 * serializes it (a discount passes SDK 0.49's schema of it).
 */
const SECRET = 'whsec_later_types';
let server: TestServer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  // Real time: the SDK checks the signature's timestamp against its own clock.
  server = await startTestServer({ clock: systemClock });
  receiver = await new WebhookReceiver().start();
});
afterAll(async () => {
  await server?.stop();
  await receiver?.stop();
});

const { seller, monthly, call, advance, advanceTo } = billingScenario(() => server);
const HOUR = 3600;

/** A seller whose endpoint (its own path on the receiver) takes the later types only. */
async function sellerWithEndpoint(): Promise<{ org: OrganizationFixture; path: string }> {
  const org = await seller();
  const path = `/${org.organization.id}`;
  await webhookEndpointFactory(server, org.organization.id, {
    url: `${receiver.url}${path}`,
    secret: SECRET,
    events: [...LATER_WEBHOOK_EVENT_TYPES],
  });
  return { org, path };
}

interface Delivered {
  type: string;
  data: Record<string, unknown>;
  headers: Record<string, string>;
  body: string;
}

/** Waits for the endpoint to have received `count` events, and answers them in order. */
async function delivered(path: string, count: number): Promise<Delivered[]> {
  const mine = () => receiver.received.filter((request) => request.path === path);
  await expect.poll(() => mine().length, { timeout: 20_000, interval: 50 }).toBeGreaterThanOrEqual(count);
  return mine().map((request) => ({
    ...(JSON.parse(request.body) as { type: string; data: Record<string, unknown> }),
    headers: plainHeaders(request.headers),
    body: request.body,
  }));
}

/** The event after its Standard Webhooks signature is checked, as a receiver reads it. */
const validated = (event: Delivered) =>
  new Webhook(Buffer.from(SECRET, 'utf8').toString('base64')).verify(event.body, event.headers) as {
    type: string;
    data: Record<string, unknown>;
  };

describe('checkout.expired', () => {
  it('is sent when the expiry marks an open checkout expired, once, with the expired checkout', async () => {
    const { org, path } = await sellerWithEndpoint();
    const product = await monthly(org, 1000);
    const checkout = await call(org, 'POST', '/v1/checkouts/', { products: [product] });
    const other = await call(org, 'POST', '/v1/checkouts/', { products: [product] });
    await advanceTo(org, new Date(new Date(checkout.expires_at).getTime() + 1000));
    const [event, ...rest] = await delivered(path, 2);
    expect(rest.map((other) => other.type)).toEqual(['checkout.expired']);
    expect([event!.data.id, rest[0]!.data.id].sort()).toEqual([checkout.id, other.id].sort());
    const parsed = [event!, ...rest].map(validated).find((one) => one.data.id === checkout.id)!;
    expect(parsed.type).toBe('checkout.expired');
    expect(parsed.data).toMatchObject({ status: 'expired', expires_at: checkout.expires_at });
    expect((await call(org, 'GET', `/v1/checkouts/${checkout.id}`)).status).toBe('expired');

    // A later run finds nothing more to expire: the run records its events before the advance answers.
    await advance(org, HOUR);
    const recorded = await server.runtime.database.db
      .selectFrom('webhook_events')
      .select('type')
      .where('organization_id', '=', org.organization.id)
      .where('type', '=', 'checkout.expired')
      .execute();
    expect(recorded).toHaveLength(2);
  });
});

describe('subscription.cycled and subscription.past_due', () => {
  it('cycled when a new period starts, past_due when its payment fails', async () => {
    const { org, path } = await sellerWithEndpoint();
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await monthly(org, 2500),
    });
    await advanceTo(org, subscription.current_period_end!);
    const [cycled] = await delivered(path, 1);
    expect(cycled!.type).toBe('subscription.cycled');
    const renewed = validated(cycled!).data as { current_period_start: string; current_period_end: string };
    expect(renewed).toMatchObject({ id: subscription.id, status: 'active', amount: 2500 });
    expect(renewed.current_period_start).toBe(subscription.current_period_end);

    await server.runtime.database.db
      .updateTable('simulated_payment_methods')
      .set({ outcome: 'charge_declined_after_attach' })
      .where('customer_id', '=', subscription.customer_id)
      .execute();
    await advanceTo(org, renewed.current_period_end);
    const events = await delivered(path, 3);
    expect(events.map((event) => event.type)).toEqual([
      'subscription.cycled',
      'subscription.cycled',
      'subscription.past_due',
    ]);
    const pastDue = validated(events[2]!);
    expect(pastDue.type).toBe('subscription.past_due');
    expect(pastDue.data).toMatchObject({ id: subscription.id, status: 'past_due' });
  });
});

describe('discount.created, discount.updated and discount.deleted', () => {
  it('follow the discount through the API, the deleted one as it was deleted', async () => {
    const { org, path } = await sellerWithEndpoint();
    const discount = await call(org, 'POST', '/v1/discounts/', {
      name: 'Launch',
      code: 'LAUNCH',
      type: 'percentage',
      basis_points: 2000,
      duration: 'once',
    });
    await call(org, 'PATCH', `/v1/discounts/${discount.id}`, { name: 'Launch week' });
    await call(org, 'DELETE', `/v1/discounts/${discount.id}`);
    const events = await delivered(path, 3);
    expect(events.map((event) => event.type)).toEqual(['discount.created', 'discount.updated', 'discount.deleted']);
    expect(events.map((event) => Discount$inboundSchema.parse(event.data).name)).toEqual([
      'Launch',
      'Launch week',
      'Launch week',
    ]);
    expect(events[0]!.data).toEqual(discount);
    expect(events[2]!.data).toMatchObject({ id: discount.id, code: 'LAUNCH' });
  });

  it('a refused change sends nothing', async () => {
    const { org, path } = await sellerWithEndpoint();
    const refused = await server.inject({
      method: 'POST',
      url: '/v1/discounts/',
      headers: { authorization: `Bearer ${org.token}` },
      payload: { name: 'Broken', type: 'percentage', basis_points: 20_000, duration: 'once' },
    });
    expect(refused.statusCode).toBe(422);
    const after = await call(org, 'POST', '/v1/discounts/', {
      name: 'Valid',
      type: 'percentage',
      basis_points: 1000,
      duration: 'once',
    });
    const events = await delivered(path, 1);
    expect(events.map((event) => event.data.id)).toEqual([after.id]);
  });
});
