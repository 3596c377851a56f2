import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../src/platform/clock.js';
import { subscriptionBillingJob } from '../src/modules/subscriptions/subscriptions.renewal.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { checkoutLinkFactory } from './factories/checkout-links.js';
import { checkoutFactory } from './factories/checkouts.js';
import { productFactory } from './factories/products.js';
import { subscriptionFactory } from './factories/subscriptions.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

/**
 * An organization's test clock over HTTP: advancing runs renewals, dunning and checkout expiry of that
 * organization only, on its own time; requests acting for it read that time; production has no route.
 */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;
const DAY = 86_400_000;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
});
afterAll(() => server?.stop());

const advance = (payload: object, token = acme.token) =>
  server.inject({ method: 'POST', url: '/v1/test-clock/advance', headers: bearer(token), payload });
const clockOf = (token = acme.token) =>
  server.inject({ method: 'GET', url: '/v1/test-clock/', headers: bearer(token) });
const subscription = (id: string, token = acme.token) =>
  server.inject({ method: 'GET', url: `/v1/subscriptions/${id}`, headers: bearer(token) });
const ordersOf = (subscriptionId: string) =>
  server.runtime.database.db.selectFrom('orders').select('id').where('subscription_id', '=', subscriptionId).execute();

describe('auth and validation', () => {
  it('401 without a token, 403 without organizations:write, 422 for a bad step with nothing moved', async () => {
    expect(
      (await server.inject({ method: 'POST', url: '/v1/test-clock/advance', payload: { days: 1 } })).statusCode,
    ).toBe(401);
    const readOnly = await tokenFactory(server, acme.organization.id, ['organizations:read']);
    expect((await clockOf(readOnly)).statusCode).toBe(200);
    expect((await advance({ days: 1 }, readOnly)).statusCode).toBe(403);
    for (const bad of [{}, { days: 0 }, { days: -1 }, { days: 1.5 }, { days: 3661 }, { days: 'two' }]) {
      const response = await advance(bad);
      expect(response.statusCode, JSON.stringify(bad)).toBe(422);
      expect(json(response).detail[0].loc).toEqual(['body', 'days']);
    }
    expect(json(await clockOf()).offset_seconds).toBe(0);
  });

  it('an organization token may not name an organization; a user must name one of theirs', async () => {
    const response = await advance({ organization_id: other.organization.id, days: 1 });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail[0].loc).toEqual(['body', 'organization_id']);
    expect(json(await clockOf(other.token)).offset_seconds).toBe(0);
  });
});

describe('advancing', () => {
  it('renews the organization subscriptions on its own time and leaves other organizations alone', async () => {
    const mine = await subscriptionFactory(server, acme.organization.id);
    const theirs = await subscriptionFactory(server, other.organization.id);
    const serverNow = server.clock.now().getTime();

    const response = await advance({ days: 31 });
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(body).toMatchObject({ organization_id: acme.organization.id, offset_seconds: 31 * 86_400, renewals: 1 });
    expect(body.charge_attempts).toBe(1);
    expect(new Date(body.now).getTime()).toBe(serverNow + 31 * DAY);

    expect(await ordersOf(mine.id)).toHaveLength(2);
    expect(await ordersOf(theirs.id)).toHaveLength(1);
    const renewed = json(await subscription(mine.id));
    expect(renewed.status).toBe('active');
    expect(renewed.current_period_start).toBe(mine.current_period_end);
    expect(json(await subscription(theirs.id, other.token)).current_period_start).toBe(theirs.current_period_start);

    // The clock is what the organization's requests read.
    expect(json(await clockOf())).toMatchObject({ offset_seconds: 31 * 86_400, now: body.now });
    expect(json(await clockOf(other.token)).offset_seconds).toBe(0);
  });

  it('runs twelve monthly renewals across a year, one period after another', async () => {
    const yearly = await subscriptionFactory(server, acme.organization.id);
    const before = await ordersOf(yearly.id);
    const response = await advance({ days: 366 });
    expect(response.statusCode).toBe(200);
    expect(await ordersOf(yearly.id)).toHaveLength(before.length + 12);
    const after = json(await subscription(yearly.id));
    expect(new Date(after.current_period_end).getTime()).toBeGreaterThan(new Date(json(response).now).getTime());
  });

  it('starts new purchases on the organization clock, so the next advance renews them on time', async () => {
    const { now } = json(await clockOf());
    const fresh = await subscriptionFactory(server, acme.organization.id);
    expect(Math.abs(new Date(fresh.started_at!).getTime() - new Date(now).getTime())).toBeLessThan(DAY);
    const soon = json(await advance({ days: 1 }));
    expect(await ordersOf(fresh.id)).toHaveLength(1);
    expect(soon.renewals).toBe(0);
  });

  it('expires open checkouts of the organization when their time has passed', async () => {
    const product = await productFactory(server, acme.organization.id);
    const checkout = await checkoutFactory(server, acme.organization.id, [product.product.id]);
    const open = await server.inject({ method: 'GET', url: `/v1/checkouts/client/${checkout.client_secret}` });
    expect(open.statusCode).toBe(200);
    const result = json(await advance({ hours: 25 })); // checkouts live a day
    expect(result.checkouts_expired).toBeGreaterThanOrEqual(1);
    const expired = await server.inject({ method: 'GET', url: `/v1/checkouts/client/${checkout.client_secret}` });
    expect(expired.statusCode).toBe(410);
  });

  it('opens checkout links on the organization clock: the new checkout is open, expiring a day after its time', async () => {
    const shop = await organizationFactory(server, { name: 'Link Shop' });
    const product = await productFactory(server, shop.organization.id);
    const link = await checkoutLinkFactory(server, shop.organization.id, [product.product.id]);
    expect(json(await advance({ days: 3 }, shop.token)).offset_seconds).toBe(3 * 86_400);
    const opened = await server.inject({ method: 'GET', url: `/v1/checkout-links/${link.client_secret}/redirect` });
    expect(opened.statusCode).toBe(307);
    const secret = new URL(opened.headers.location!).pathname.split('/').pop()!;
    const checkout = await server.inject({ method: 'GET', url: `/v1/checkouts/client/${secret}` });
    expect(checkout.statusCode).toBe(200);
    const { now } = json(await clockOf(shop.token));
    expect(new Date(json(checkout).expires_at).getTime() - new Date(now).getTime()).toBeGreaterThan(DAY - 60_000);
    expect(new Date(json(checkout).created_at).getTime()).toBeGreaterThan(server.clock.now().getTime() + 2 * DAY);
  });

  it('takes a declining card through dunning to the end of the subscription', async () => {
    const dunned = await subscriptionFactory(server, acme.organization.id);
    await server.runtime.database.db
      .updateTable('simulated_payment_methods')
      .set({ outcome: 'charge_declined_after_attach' })
      .where('customer_id', '=', dunned.customer_id)
      .execute();
    await advance({ days: 31 });
    expect(json(await subscription(dunned.id)).status).toBe('past_due');
    for (const days of [2, 5, 7]) {
      await advance({ days });
      expect(json(await subscription(dunned.id)).status).toBe('past_due');
    }
    await advance({ days: 7 });
    const ended = json(await subscription(dunned.id));
    expect(ended.status).toBe('canceled');
    expect(ended.ended_at).not.toBeNull();
  });
});

describe('the periodic billing job', () => {
  it("renews an organization with a test clock on that clock, others on the server's", async () => {
    const { offset_seconds } = json(await clockOf());
    const mine = await subscriptionFactory(server, acme.organization.id);
    const theirs = await subscriptionFactory(server, other.organization.id);
    // 31 days of server time pass: both are due, each on its own clock.
    (server.clock as ManualClock).advance(31 * DAY);
    const ctx = server.context();
    await subscriptionBillingJob.handle(ctx, {}, ctx.transactions);
    expect(await ordersOf(mine.id)).toHaveLength(2);
    expect(await ordersOf(theirs.id)).toHaveLength(2);
    const renewedStart = new Date(json(await subscription(mine.id)).current_period_start).getTime();
    expect(renewedStart).toBe(new Date(mine.current_period_end!).getTime());
    const [order] = await server.runtime.database.db
      .selectFrom('orders')
      .select('created_at')
      .where('subscription_id', '=', mine.id)
      .orderBy('created_at', 'desc')
      .limit(1)
      .execute();
    // The cycle order is stamped with the organization's time, not the server's.
    expect(order!.created_at.getTime()).toBe(server.clock.now().getTime() + offset_seconds * 1000);
  });
});

describe('in production', () => {
  let production: TestServer;
  beforeAll(async () => {
    production = await startTestServer({ config: { devMode: false } });
  });
  afterAll(() => production?.stop());

  it('the routes do not exist', async () => {
    const org = await organizationFactory(production, { name: 'Prod' });
    const get = await production.inject({ method: 'GET', url: '/v1/test-clock/', headers: bearer(org.token) });
    const post = await production.inject({
      method: 'POST',
      url: '/v1/test-clock/advance',
      headers: bearer(org.token),
      payload: { days: 1 },
    });
    expect(get.statusCode).toBe(404);
    expect(post.statusCode).toBe(404);
  });
});
