import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS, CARDS, checkoutFactory, confirmationToken } from './factories/checkouts.js';
import { customFieldFactory } from './factories/custom-fields.js';
import { discountFactory } from './factories/discounts.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { customPrice, fixedPrice, freePrice, meteredPrice, productFactory } from './factories/products.js';
import { meterFactory } from './factories/benefits.js';
import { customerFactory } from './factories/customers.js';
import type { ManualClock } from '../src/platform/clock.js';
import { expireCheckoutsJob } from '../src/modules/checkouts/checkouts.expire.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
});
afterAll(() => server?.stop());

const create = (payload: unknown, token = acme.token) =>
  server.inject({ method: 'POST', url: '/v1/checkouts/', headers: bearer(token), payload: payload as object });
const get = (id: string, token = acme.token) =>
  server.inject({ method: 'GET', url: `/v1/checkouts/${id}`, headers: bearer(token) });
const patch = (id: string, payload: unknown, token = acme.token) =>
  server.inject({ method: 'PATCH', url: `/v1/checkouts/${id}`, headers: bearer(token), payload: payload as object });
const list = (query: string, token = acme.token) =>
  server.inject({ method: 'GET', url: `/v1/checkouts/?${query}`, headers: bearer(token) });
const clientGet = (secret: string) => server.inject({ method: 'GET', url: `/v1/checkouts/client/${secret}` });
const clientPatch = (secret: string, payload: unknown) =>
  server.inject({ method: 'PATCH', url: `/v1/checkouts/client/${secret}`, payload: payload as object });
const confirm = (secret: string, payload: unknown) =>
  server.inject({ method: 'POST', url: `/v1/checkouts/client/${secret}/confirm`, payload: payload as object });

async function count(table: 'checkouts' | 'orders' | 'payments' | 'discount_redemptions'): Promise<number> {
  const row = await server.runtime.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function events(type: string): Promise<unknown[]> {
  const rows = await server.runtime.database.db
    .selectFrom('webhook_events')
    .select('payload')
    .where('type', '=', type)
    .execute();
  return rows.map((row) => (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload).data);
}

describe('auth matrix (seller routes)', () => {
  it('answers 401 without a token', async () => {
    expect((await server.inject({ method: 'GET', url: '/v1/checkouts/' })).statusCode).toBe(401);
    expect((await server.inject({ method: 'POST', url: '/v1/checkouts/', payload: {} })).statusCode).toBe(401);
  });

  it('answers 403 when the token lacks the scope', async () => {
    const { product } = await productFactory(server, acme.organization.id);
    const readOnly = await tokenFactory(server, acme.organization.id, ['checkouts:read']);
    expect((await list('', readOnly)).statusCode).toBe(200);
    expect((await create({ products: [product.id] }, readOnly)).statusCode).toBe(403);
    const unrelated = await tokenFactory(server, acme.organization.id, ['products:read']);
    expect((await list('', unrelated)).statusCode).toBe(403);
  });

  it("answers 404 for another organization's checkout", async () => {
    const { product } = await productFactory(server, other.organization.id);
    const foreign = await checkoutFactory(server, other.organization.id, [product.id]);
    expect((await get(foreign.id)).statusCode).toBe(404);
    expect((await patch(foreign.id, { customer_name: 'Mine' })).statusCode).toBe(404);
    expect(json(await get(foreign.id, other.token)).id).toBe(foreign.id);
  });

  it('answers 422 listing every problem, and writes nothing', async () => {
    const before = await count('checkouts');
    const response = await create({ products: ['not-a-uuid'], customer_email: 'nope', amount: -1 });
    expect(response.statusCode).toBe(422);
    const locs = json(response).detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.products.0', 'body.customer_email', 'body.amount']));
    const unknown = await create({ products: ['00000000-0000-4000-8000-000000000000'] });
    expect(json(unknown).detail[0]).toMatchObject({ loc: ['body', 'products', 0], msg: 'Product does not exist.' });
    expect(await count('checkouts')).toBe(before);
  });
});

describe('seller checkouts', () => {
  it('creates a checkout with every field and the computed amounts', async () => {
    const { product } = await productFactory(server, acme.organization.id);
    const discount = await discountFactory(server, acme.organization.id, { basis_points: 2500 });
    const response = await create({
      products: [product.id],
      discount_id: discount.id,
      customer_email: 'Buyer@Example.com',
      customer_name: 'Buyer',
      customer_billing_address: { country: 'FR' },
      metadata: { campaign: 'spring' },
      customer_metadata: { tier: 2 },
      success_url: 'https://shop.example/thanks?c={CHECKOUT_ID}',
      embed_origin: 'https://shop.example',
    });
    expect(response.statusCode).toBe(201);
    const checkout = json(response);
    expect(checkout).toMatchObject({
      status: 'open',
      payment_processor: 'stripe',
      amount: 1000,
      discount_amount: 250,
      net_amount: 750,
      tax_amount: 0,
      total_amount: 750,
      currency: 'usd',
      product_id: product.id,
      is_payment_required: true,
      is_payment_form_required: true,
      metadata: { campaign: 'spring' },
      customer_metadata: { tier: 2 },
      embed_origin: 'https://shop.example',
    });
    expect(checkout.client_secret).toMatch(/^polar_c_/);
    expect(checkout.url).toBe(`${server.config.baseUrl}/checkout/${checkout.client_secret}`);
    expect(checkout.success_url).toBe(`https://shop.example/thanks?c=${checkout.id}`);
    expect(Date.parse(checkout.expires_at) - Date.parse(checkout.created_at)).toBe(24 * 3600 * 1000);
    expect(await events('checkout.created')).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: checkout.id })]),
    );

    const updated = json(await patch(checkout.id, { discount_id: null, require_billing_address: true }));
    expect(updated).toMatchObject({
      discount_id: null,
      discount_amount: 0,
      total_amount: 1000,
      require_billing_address: true,
    });
    expect(updated.customer_billing_address_fields).toMatchObject({ line1: true, city: true });
  });

  it('lists with filters and sorting', async () => {
    const { product } = await productFactory(server, acme.organization.id);
    const a = await checkoutFactory(server, acme.organization.id, [product.id], { customer_email: 'zed@example.com' });
    (server.clock as ManualClock).advance(1000);
    const b = await checkoutFactory(server, acme.organization.id, [product.id]);
    const page = json(await list(`product_id=${product.id}&sorting=created_at`));
    expect(page.items.map((c: { id: string }) => c.id)).toEqual([a.id, b.id]);
    const descending = json(await list(`product_id=${product.id}&sorting=-created_at`));
    expect(descending.items.map((c: { id: string }) => c.id)).toEqual([b.id, a.id]);
    expect(page.pagination.total_count).toBe(2);
    expect(json(await list(`product_id=${product.id}&query=zed`)).items).toHaveLength(1);
    expect(json(await list(`status=succeeded&product_id=${product.id}`)).items).toHaveLength(0);
  });
});

describe('public checkouts', () => {
  it('answers 404 for an unknown secret and 410 once expired, whatever the status', async () => {
    expect((await clientGet('polar_c_unknown')).statusCode).toBe(404);
    const { product } = await productFactory(server, acme.organization.id);
    const checkout = await checkoutFactory(server, acme.organization.id, [product.id]);
    const open = await clientGet(checkout.client_secret);
    expect(open.statusCode).toBe(200);
    expect(json(open).organization.id).toBe(acme.organization.id);
    expect(json(open).metadata).toBeUndefined();
    (server.clock as ManualClock).advance(24 * 3600 * 1000 + 1);
    try {
      const expired = await clientGet(checkout.client_secret);
      expect(expired.statusCode).toBe(410);
      expect(json(expired).error).toBe('ExpiredCheckoutError');
      expect((await clientPatch(checkout.client_secret, { customer_name: 'x' })).statusCode).toBe(410);
      expect((await confirm(checkout.client_secret, {})).statusCode).toBe(410);
    } finally {
      (server.clock as ManualClock).advance(-(24 * 3600 * 1000 + 1));
    }
  });

  it('the expiry job marks open checkouts past their time expired', async () => {
    const { product } = await productFactory(server, acme.organization.id);
    const checkout = await checkoutFactory(server, acme.organization.id, [product.id]);
    const clock = server.clock as ManualClock;
    const ctx = () => server.context();
    await expireCheckoutsJob.handle(ctx(), {});
    expect(json(await get(checkout.id)).status).toBe('open');
    clock.advance(24 * 3600 * 1000);
    try {
      await expireCheckoutsJob.handle(ctx(), {});
      expect(json(await get(checkout.id)).status).toBe('expired');
    } finally {
      clock.advance(-24 * 3600 * 1000);
    }
    expect((await patch(checkout.id, { customer_name: 'x' })).statusCode).toBe(403);
  });

  it('updates buyer fields and reports every problem in one 422', async () => {
    const field = await customFieldFactory(server, acme.organization.id, { type: 'number', slug: 'seats' });
    const { product } = await productFactory(server, acme.organization.id, {
      prices: [customPrice({ minimum_amount: 500, maximum_amount: 5000 })],
      attached_custom_fields: [{ custom_field_id: field.id, required: true }],
    });
    const checkout = await checkoutFactory(server, acme.organization.id, [product.id]);
    const bad = await clientPatch(checkout.client_secret, {
      product_id: '00000000-0000-4000-8000-000000000000',
      amount: 100,
      custom_field_data: { seats: 'many' },
      customer_tax_id: 'FR123',
      discount_code: 'NOPE123',
    });
    expect(bad.statusCode).toBe(422);
    const locs = json(bad).detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(locs).toEqual(
      expect.arrayContaining([
        'body.product_id',
        'body.amount',
        'body.custom_field_data.seats',
        'body.customer_billing_address',
        'body.discount_code',
      ]),
    );
    const ok = json(
      await clientPatch(checkout.client_secret, {
        amount: 2000,
        customer_email: 'pwyw@example.com',
        custom_field_data: { seats: 3 },
        is_business_customer: true,
        customer_billing_address: { country: 'FR', city: 'Paris' },
        customer_tax_id: 'FR40303265045',
      }),
    );
    expect(ok).toMatchObject({
      amount: 2000,
      total_amount: 2000,
      custom_field_data: { seats: 3 },
      customer_tax_id: 'FR40303265045',
    });
    const missing = await confirm(checkout.client_secret, { custom_field_data: { seats: null } });
    expect(missing.statusCode).toBe(422);
    const confirmLocs = json(missing).detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(confirmLocs).toEqual(
      expect.arrayContaining([
        'body.customer_name',
        'body.customer_billing_name',
        'body.custom_field_data.seats',
        'body.confirmation_token_id',
      ]),
    );
  });

  it('answers 403 NotOpenCheckout after success', async () => {
    const { product } = await productFactory(server, acme.organization.id, { prices: [freePrice()] });
    const checkout = await checkoutFactory(server, acme.organization.id, [product.id]);
    const done = await confirm(checkout.client_secret, { customer_email: 'free@example.com' });
    expect(done.statusCode).toBe(200);
    expect(json(done).status).toBe('confirmed');
    const again = await confirm(checkout.client_secret, {});
    expect(again.statusCode).toBe(403);
    expect(json(again).error).toBe('NotOpenCheckout');
    expect(json(await clientGet(checkout.client_secret)).status).toBe('succeeded');
  });
});

describe('confirm', () => {
  it('a declined card records a failed payment, releases the redemption and reopens the checkout', async () => {
    const { product } = await productFactory(server, acme.organization.id);
    const discount = await discountFactory(server, acme.organization.id, { max_redemptions: 1 });
    const checkout = await checkoutFactory(server, acme.organization.id, [product.id], { discount_id: discount.id });
    const body = {
      customer_email: 'declined@example.com',
      customer_name: 'Dee Klined',
      customer_billing_address: ADDRESS,
    };
    const before = { orders: await count('orders'), redemptions: await count('discount_redemptions') };
    const declined = await confirm(checkout.client_secret, {
      ...body,
      confirmation_token_id: await confirmationToken(server, CARDS.declined),
    });
    expect(declined.statusCode).toBe(400);
    expect(json(declined).error).toBe('PaymentError');
    const payments = await server.runtime.database.db
      .selectFrom('payments')
      .selectAll()
      .where('checkout_id', '=', checkout.id)
      .execute();
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ status: 'failed', decline_reason: 'card_declined' });
    expect(payments[0]!.decline_message).toBeTruthy();
    expect(json(await get(checkout.id)).status).toBe('open');
    expect(await count('discount_redemptions')).toBe(before.redemptions);
    expect(await count('orders')).toBe(before.orders);

    const paid = await confirm(checkout.client_secret, {
      ...body,
      confirmation_token_id: await confirmationToken(server, CARDS.visa),
    });
    expect(paid.statusCode).toBe(200);
    expect(json(paid).customer_session_token).toMatch(/^polar_cst_/);
    expect(await count('discount_redemptions')).toBe(before.redemptions + 1);
  });

  it('refuses a second subscription when the organization allows only one', async () => {
    const { product } = await productFactory(server, acme.organization.id, { recurring_interval: 'month' });
    const first = await checkoutFactory(server, acme.organization.id, [product.id]);
    const ok = await confirm(first.client_secret, {
      customer_email: 'Sub@Example.com',
      customer_name: 'Sub',
      customer_billing_address: ADDRESS,
      confirmation_token_id: await confirmationToken(server),
    });
    expect(ok.statusCode).toBe(200);
    const second = await checkoutFactory(server, acme.organization.id, [product.id]);
    const refused = await clientPatch(second.client_secret, { customer_email: 'sub@example.com' });
    expect(refused.statusCode).toBe(403);
    expect(json(refused).error).toBe('AlreadyActiveSubscriptionError');
    const subscriptions = await events('subscription.created');
    expect(subscriptions).toEqual(expect.arrayContaining([expect.objectContaining({ checkout_id: first.id })]));
  });

  it('50 concurrent confirms on a discount with max_redemptions 5 redeem it exactly 5 times', async () => {
    const { product } = await productFactory(server, acme.organization.id);
    const discount = await discountFactory(server, acme.organization.id, { max_redemptions: 5, basis_points: 10_000 });
    const checkouts = await Promise.all(
      Array.from({ length: 50 }, () =>
        checkoutFactory(server, acme.organization.id, [product.id], { discount_id: discount.id }),
      ),
    );
    const responses = await Promise.all(
      checkouts.map((checkout, i) => confirm(checkout.client_secret, { customer_email: `rush${i}@example.com` })),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 422)).toHaveLength(45);
    const rejected = responses.find((r) => r.statusCode === 422)!;
    expect(json(rejected).detail[0]).toMatchObject({
      loc: ['body', 'discount_id'],
      msg: 'Discount is no longer redeemable.',
    });
    const orders = await server.runtime.database.db
      .selectFrom('orders')
      .select('id')
      .where('discount_id', '=', discount.id)
      .execute();
    expect(orders).toHaveLength(5);
  });
});

describe('customers at confirm', () => {
  it('two first purchases with one new email at the same moment create one customer', async () => {
    const { product } = await productFactory(server, acme.organization.id, { prices: [{ amount_type: 'free' }] });
    const checkouts = await Promise.all(
      Array.from({ length: 6 }, () => checkoutFactory(server, acme.organization.id, [product.id])),
    );
    const responses = await Promise.all(
      checkouts.map((checkout, i) =>
        confirm(checkout.client_secret, { customer_email: i % 2 ? 'Twin@Example.com' : 'twin@example.com' }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    const customers = await server.runtime.database.db
      .selectFrom('customers')
      .select('id')
      .where('organization_id', '=', acme.organization.id)
      .where((eb) => eb(eb.fn('lower', ['email']), '=', 'twin@example.com'))
      .execute();
    expect(customers).toHaveLength(1);
  });
});

describe('prices a buyer may choose', () => {
  it('refuses a metered price (422, nothing changed); the subscription carries every price of the product', async () => {
    const meter = await meterFactory(server, acme.organization.id);
    const { product, prices } = await productFactory(server, acme.organization.id, {
      recurring_interval: 'month',
      prices: [fixedPrice(2500), meteredPrice(meter.id)],
    });
    const [fixed, metered] = prices;
    expect([fixed!.amount_type, metered!.amount_type]).toEqual(['fixed', 'metered_unit']);
    const checkout = await checkoutFactory(server, acme.organization.id, [product.id]);

    const update = await clientPatch(checkout.client_secret, { product_price_id: metered!.id });
    expect(update.statusCode).toBe(422);
    expect(json(update).detail).toEqual([
      expect.objectContaining({ loc: ['body', 'product_price_id'], msg: 'Price is not available in this checkout.' }),
    ]);
    expect(json(await clientGet(checkout.client_secret))).toMatchObject({
      product_price_id: fixed!.id,
      total_amount: 2500,
    });
    const refused = await confirm(checkout.client_secret, {
      product_price_id: metered!.id,
      customer_email: 'metered@example.com',
      customer_name: 'Mia Metered',
      customer_billing_address: ADDRESS,
      confirmation_token_id: await confirmationToken(server),
    });
    expect(refused.statusCode).toBe(422);

    const paid = await confirm(checkout.client_secret, {
      customer_email: 'metered@example.com',
      customer_name: 'Mia Metered',
      customer_billing_address: ADDRESS,
      confirmation_token_id: await confirmationToken(server),
    });
    expect(paid.statusCode).toBe(200);
    const created = (await events('subscription.created')).find(
      (event) => (event as { checkout_id: string }).checkout_id === checkout.id,
    ) as { prices: { id: string }[] };
    expect(created.prices.map((price) => price.id).sort()).toEqual([fixed!.id, metered!.id].sort());
  });
});

describe('portal takeover by email', () => {
  const buyer = {
    customer_email: 'owner@example.com',
    customer_name: 'Mallory Mimic',
    customer_billing_address: {
      country: 'US',
      line1: '1 Elsewhere Rd',
      city: 'Nowhere',
      postal_code: '10001',
      state: 'US-NY',
    },
  };

  it("a buyer matched by email gets no portal session and changes none of the customer's details", async () => {
    const owner = await customerFactory(server, acme.organization.id, {
      email: 'owner@example.com',
      name: 'Olive Owner',
      billing_address: ADDRESS,
    } as never);
    const updatesBefore = (await events('customer.updated')).length;
    const { product } = await productFactory(server, acme.organization.id);
    const checkout = await checkoutFactory(server, acme.organization.id, [product.id]);
    const paid = await confirm(checkout.client_secret, {
      ...buyer,
      confirmation_token_id: await confirmationToken(server),
    });
    expect(paid.statusCode).toBe(200);
    expect(json(paid).customer_session_token).toBeNull();
    expect(json(paid).customer_id).toBe(owner.id);
    const after = await server.runtime.database.db
      .selectFrom('customers')
      .selectAll()
      .where('id', '=', owner.id)
      .executeTakeFirstOrThrow();
    expect(after.name).toBe('Olive Owner');
    expect(after.billing_address).toMatchObject({ line1: ADDRESS.line1, city: 'Paris' });
    expect((await events('customer.updated')).length).toBe(updatesBefore);
    // The order keeps what the buyer entered for this purchase.
    const order = await server.runtime.database.db
      .selectFrom('orders')
      .selectAll()
      .where('checkout_id', '=', checkout.id)
      .executeTakeFirstOrThrow();
    expect(order.billing_address).toMatchObject({ line1: '1 Elsewhere Rd' });
  });

  it('a new customer, or one the seller linked, gets the session', async () => {
    const { product } = await productFactory(server, acme.organization.id, { prices: [freePrice()] });
    const fresh = await checkoutFactory(server, acme.organization.id, [product.id]);
    const created = await confirm(fresh.client_secret, { customer_email: 'brand-new@example.com' });
    expect(json(created).customer_session_token).toMatch(/^polar_cst_/);
    const known = await customerFactory(server, acme.organization.id);
    const linked = await checkoutFactory(server, acme.organization.id, [product.id], { customer_id: known.id });
    const answer = await confirm(linked.client_secret, {});
    expect(answer.statusCode).toBe(200);
    expect(json(answer).customer_session_token).toMatch(/^polar_cst_/);
  });
});

describe('checkout links', () => {
  it('opening a link twice gives two checkouts, with the link settings and query prefills', async () => {
    const { product } = await productFactory(server, acme.organization.id);
    const discount = await discountFactory(server, acme.organization.id, { code: 'LINK10' });
    const link = json(
      await server.inject({
        method: 'POST',
        url: '/v1/checkout-links/',
        headers: bearer(acme.token),
        payload: {
          payment_processor: 'stripe',
          products: [product.id],
          require_billing_address: true,
          success_url: 'https://shop.example/done',
          metadata: { source: 'link' },
        },
      }),
    );
    const open = () =>
      server.inject({
        method: 'GET',
        url: `/v1/checkout-links/${link.client_secret}/redirect?customer_email=link@example.com&discount_code=link10&utm_source=news&embed_origin=https://embed.example`,
      });
    const first = await open();
    const second = await open();
    expect(first.statusCode).toBe(307);
    expect(second.statusCode).toBe(307);
    const secrets = [first, second].map((r) => /\/checkout\/(polar_c_[^?]+)/.exec(r.headers.location as string)![1]!);
    expect(new Set(secrets).size).toBe(2);
    expect(first.headers.location).toContain('utm_source=news');
    expect(first.headers.location).not.toContain('embed_origin');
    const checkout = json(await clientGet(secrets[0]!));
    expect(checkout).toMatchObject({
      product_id: product.id,
      require_billing_address: true,
      success_url: 'https://shop.example/done',
      customer_email: 'link@example.com',
      discount_id: discount.id,
      embed_origin: 'https://embed.example',
    });
    expect(json(await get(checkout.id)).metadata).toEqual({ source: 'link', utm_source: 'news' });
    expect((await server.inject({ method: 'GET', url: '/v1/checkout-links/polar_cl_nope/redirect' })).statusCode).toBe(
      404,
    );
  });
});
