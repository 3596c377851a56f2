import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../src/platform/clock.js';
import { OrderInvariantError } from '../src/modules/orders/orders.errors.js';
import { createOrder, markOrderPaid, type CreateOrderInput } from '../src/modules/orders/orders.service.js';
import type { OrderWire } from '../src/modules/orders/orders.serializer.js';
import { customerFactory } from './factories/customers.js';
import { discountFactory } from './factories/discounts.js';
import { orderFactory } from './factories/orders.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { bearer, json, startTestServer, usingServerDatabase, type TestServer } from './harness.js';

let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
});
afterAll(() => server?.stop());

const get = (id: string, token = acme.token) =>
  server.inject({ method: 'GET', url: `/v1/orders/${id}`, headers: bearer(token) });
const patch = (id: string, payload: unknown, token = acme.token) =>
  server.inject({ method: 'PATCH', url: `/v1/orders/${id}`, headers: bearer(token), payload: payload as object });
const list = (query: string, token = acme.token) =>
  server.inject({ method: 'GET', url: `/v1/orders/?${query}`, headers: bearer(token) });
const generateInvoice = (id: string, token = acme.token) =>
  server.inject({ method: 'POST', url: `/v1/orders/${id}/invoice`, headers: bearer(token) });
const getInvoice = (id: string, token = acme.token) =>
  server.inject({ method: 'GET', url: `/v1/orders/${id}/invoice`, headers: bearer(token) });

async function events(organizationId: string) {
  return server.runtime.database.db
    .selectFrom('webhook_events')
    .select(['type', 'payload'])
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The event types recorded for an order, sorted (events of one change share their timestamp). */
async function eventsOfOrder(organizationId: string, orderId: string) {
  return (await events(organizationId))
    .filter((event) => (event.payload as { data: { id?: string } }).data.id === orderId)
    .map((event) => event.type)
    .sort();
}

async function invoiceNumber(orderId: string): Promise<string> {
  const row = await server.runtime.database.db
    .selectFrom('orders')
    .select('invoice_number')
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  return row.invoice_number;
}

/** A paid $5 one-time order's input: one line, no discount, no tax. */
const orderInput = (organizationId: string, customerId: string, productId: string): CreateOrderInput => ({
  organization_id: organizationId,
  customer_id: customerId,
  product_id: productId,
  product_price_id: null,
  discount_id: null,
  checkout_id: null,
  subscription_id: null,
  billing_reason: 'purchase',
  billing_name: null,
  billing_address: null,
  currency: 'usd',
  subtotal_amount: 500,
  discount_amount: 0,
  tax_amount: 0,
  status: 'paid',
  items: [{ label: 'x', amount: 500, tax_amount: 0, proration: false, product_price_id: null }],
});

const ADDRESS = { line1: '1 Main St', city: 'Springfield', postal_code: '12345', state: 'IL', country: 'us' };

describe('auth matrix', () => {
  it('answers 401 without a token', async () => {
    expect((await server.inject({ method: 'GET', url: '/v1/orders/' })).statusCode).toBe(401);
    const order = await orderFactory(server, acme.organization.id);
    expect((await server.inject({ method: 'GET', url: `/v1/orders/${order.id}` })).statusCode).toBe(401);
    expect((await server.inject({ method: 'PATCH', url: `/v1/orders/${order.id}`, payload: {} })).statusCode).toBe(401);
    expect((await server.inject({ method: 'POST', url: `/v1/orders/${order.id}/invoice` })).statusCode).toBe(401);
    expect((await server.inject({ method: 'GET', url: `/v1/orders/${order.id}/invoice` })).statusCode).toBe(401);
  });

  it('answers 403 when the token lacks the scope', async () => {
    const order = await orderFactory(server, acme.organization.id);
    const unrelated = await tokenFactory(server, acme.organization.id, ['products:read']);
    expect((await list('', unrelated)).statusCode).toBe(403);
    expect((await get(order.id, unrelated)).statusCode).toBe(403);
    expect((await generateInvoice(order.id, unrelated)).statusCode).toBe(403);
    expect((await getInvoice(order.id, unrelated)).statusCode).toBe(403);
    const readOnly = await tokenFactory(server, acme.organization.id, ['orders:read']);
    expect((await get(order.id, readOnly)).statusCode).toBe(200);
    const denied = await patch(order.id, { billing_name: 'X', billing_address: null }, readOnly);
    expect(denied.statusCode).toBe(403);
    expect(json(denied).error).toBe('insufficient_scope');
    expect(json(await get(order.id)).billing_name).toBe(order.billing_name);
  });

  it("answers 404 for another organization's order", async () => {
    const foreign = await orderFactory(server, other.organization.id);
    expect(json(await get(foreign.id))).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    expect((await get(foreign.id)).statusCode).toBe(404);
    expect((await patch(foreign.id, { billing_name: 'Mine', billing_address: null })).statusCode).toBe(404);
    expect((await generateInvoice(foreign.id)).statusCode).toBe(404);
    expect((await getInvoice(foreign.id)).statusCode).toBe(404);
    expect((await get(randomUUID())).statusCode).toBe(404);
    expect(json(await get(foreign.id, other.token)).id).toBe(foreign.id);
  });

  it('answers 422 listing every problem, and changes nothing', async () => {
    const order = await orderFactory(server, acme.organization.id, { billing_name: 'Before' });
    const before = await events(acme.organization.id);
    const response = await patch(order.id, { billing_address: { line1: 'x', country: 'ZZ' } });
    expect(response.statusCode).toBe(422);
    const locs = json(response).detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.billing_name', 'body.billing_address.country']));
    expect(json(response).detail.find((d: { loc: unknown[] }) => d.loc[1] === 'billing_name').type).toBe('missing');
    expect(json(await get(order.id)).billing_name).toBe('Before');
    expect(await events(acme.organization.id)).toHaveLength(before.length);
    expect((await get('not-a-uuid')).statusCode).toBe(422);
    expect((await list('sorting=bogus')).statusCode).toBe(422);
    expect((await list('product_billing_type=weekly')).statusCode).toBe(422);
  });
});

describe('GET /v1/orders/{id}', () => {
  it('serializes every field of the wire shape, with its customer, product, discount and items', async () => {
    const customer = await customerFactory(server, acme.organization.id, { name: 'Jane Buyer' });
    const bundle = await productFactory(server, acme.organization.id, { name: 'Widget' });
    const discount = await discountFactory(server, acme.organization.id);
    const checkoutId = randomUUID();
    const created = await orderFactory(server, acme.organization.id, {
      customer,
      product: bundle,
      discount_id: discount.id,
      checkout_id: checkoutId,
      subtotal_amount: 1000,
      discount_amount: 100,
      tax_amount: 180,
      billing_name: 'Jane Buyer Ltd',
      billing_address: {
        line1: '1 Main St',
        line2: null,
        postal_code: '12345',
        city: 'Springfield',
        state: 'US-IL',
        country: 'US',
      },
      metadata: { source: 'test', n: 2 },
      custom_field_data: { company: 'Jane Co' },
    });
    const response = await get(created.id);
    expect(response.statusCode).toBe(200);
    const order = json(response);
    expect(order).toEqual(created);
    expect(order).toMatchObject({
      status: 'paid',
      paid: true,
      subtotal_amount: 1000,
      discount_amount: 100,
      net_amount: 900,
      amount: 900,
      tax_amount: 180,
      total_amount: 1080,
      refunded_amount: 0,
      refunded_tax_amount: 0,
      currency: 'usd',
      billing_reason: 'purchase',
      billing_name: 'Jane Buyer Ltd',
      billing_address: { line1: '1 Main St', line2: null, city: 'Springfield', state: 'US-IL', country: 'US' },
      is_invoice_generated: false,
      customer_id: customer.id,
      user_id: customer.id,
      product_id: bundle.product.id,
      discount_id: discount.id,
      subscription_id: null,
      checkout_id: checkoutId,
      metadata: { source: 'test', n: 2 },
      custom_field_data: { company: 'Jane Co' },
      subscription: null,
    });
    expect(order.customer).toMatchObject({ id: customer.id, email: customer.email, name: 'Jane Buyer' });
    expect(order.product).toMatchObject({ id: bundle.product.id, name: 'Widget', is_recurring: false, metadata: {} });
    expect(order.product).not.toHaveProperty('prices');
    expect(order.discount).toMatchObject({ id: discount.id, type: 'percentage', basis_points: 1000 });
    expect(order.discount).not.toHaveProperty('products');
    expect(order.items).toEqual([
      {
        id: expect.any(String),
        created_at: order.created_at,
        modified_at: null,
        label: 'Widget',
        amount: 1000,
        tax_amount: 0,
        proration: false,
        product_price_id: bundle.prices[0]!.id,
      },
    ]);
  });
});

describe('createOrder and markOrderPaid (the checkout flow)', () => {
  it('records order.created and order.paid for a paid order, in the same transaction', async () => {
    const order = await orderFactory(server, acme.organization.id);
    expect(await eventsOfOrder(acme.organization.id, order.id)).toEqual(['order.created', 'order.paid']);
    const paid = (await events(acme.organization.id)).find(
      (event) => event.type === 'order.paid' && (event.payload as { data: OrderWire }).data.id === order.id,
    )!;
    expect((paid.payload as { data: OrderWire }).data).toEqual(json(await get(order.id)));
  });

  it('records only order.created for a pending order; markOrderPaid adds order.updated and order.paid once', async () => {
    const order = await orderFactory(server, acme.organization.id, { status: 'pending' });
    expect(order).toMatchObject({ status: 'pending', paid: false });
    expect(await eventsOfOrder(acme.organization.id, order.id)).toEqual(['order.created']);
    (server.clock as ManualClock).advance(1000);
    const run = () =>
      server.runtime.database.db.transaction().execute((db) => markOrderPaid(server.runtime.context(db), order.id));
    const paid = await run();
    expect(paid).toMatchObject({ status: 'paid', paid: true });
    expect(paid.modified_at).not.toBeNull();
    await run();
    expect(await eventsOfOrder(acme.organization.id, order.id)).toEqual([
      'order.created',
      'order.paid',
      'order.updated',
    ]);
  });

  it('rolls everything back (order, items, events, invoice number) with the transaction', async () => {
    const org = await organizationFactory(server);
    await orderFactory(server, org.organization.id);
    const customer = await customerFactory(server, org.organization.id);
    const bundle = await productFactory(server, org.organization.id);
    const before = (await events(org.organization.id)).length;
    await expect(
      server.runtime.database.db.transaction().execute(async (db) => {
        await createOrder(server.runtime.context(db), orderInput(org.organization.id, customer.id, bundle.product.id));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await events(org.organization.id)).toHaveLength(before);
    const next = await orderFactory(server, org.organization.id, { customer, product: bundle });
    // The aborted order gave its number back.
    expect(await invoiceNumber(next.id)).toBe(`${org.organization.customer_invoice_prefix}-0002`);
  });

  it.each([
    [{ subtotal_amount: 100, discount_amount: 200 }, 'discount_amount exceeds'],
    [{ subtotal_amount: 100, net_amount: 90 }, 'net_amount'],
    [{ subtotal_amount: 100, tax_amount: 10, total_amount: 100 }, 'total_amount'],
    [{ subtotal_amount: 10.5 }, 'subtotal_amount'],
    [{ tax_amount: -1 }, 'tax_amount'],
  ])('refuses amounts that do not add up: %j', async (amounts, message) => {
    const error = await orderFactory(server, acme.organization.id, amounts).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OrderInvariantError);
    expect((error as Error).message).toContain(message);
  });

  it("refuses another organization's customer, product or price", async () => {
    const foreignCustomer = await customerFactory(server, other.organization.id);
    const foreignProduct = await productFactory(server, other.organization.id);
    await expect(orderFactory(server, acme.organization.id, { customer: foreignCustomer })).rejects.toThrow(
      OrderInvariantError,
    );
    await expect(orderFactory(server, acme.organization.id, { product: foreignProduct })).rejects.toThrow(
      OrderInvariantError,
    );
    await expect(
      orderFactory(server, acme.organization.id, { product_price_id: foreignProduct.prices[0]!.id }),
    ).rejects.toThrow(OrderInvariantError);
  });

  it('numbers invoices per organization from its prefix: PREFIX-0001, PREFIX-0002, …', async () => {
    const org = await organizationFactory(server, { slug: `inv-${randomUUID().slice(0, 6)}` });
    const first = await orderFactory(server, org.organization.id, { status: 'pending', subtotal_amount: 0 });
    const second = await orderFactory(server, org.organization.id);
    const prefix = org.organization.customer_invoice_prefix;
    expect(prefix).toBe(org.organization.slug.toUpperCase().replace(/-/g, ''));
    expect(await invoiceNumber(first.id)).toBe(`${prefix}-0001`);
    expect(await invoiceNumber(second.id)).toBe(`${prefix}-0002`);
  });

  it('gives 20 orders created concurrently in one organization 20 distinct consecutive numbers', async () => {
    const org = await organizationFactory(server);
    const customer = await customerFactory(server, org.organization.id);
    const product = await productFactory(server, org.organization.id);
    const orders = await Promise.all(
      Array.from({ length: 20 }, () => orderFactory(server, org.organization.id, { customer, product })),
    );
    const numbers = await Promise.all(orders.map((order) => invoiceNumber(order.id)));
    const prefix = org.organization.customer_invoice_prefix;
    expect(new Set(numbers).size).toBe(20);
    expect([...numbers].sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `${prefix}-${String(i + 1).padStart(4, '0')}`),
    );
  });
});

describe('invoice numbers taken as the transaction commits', () => {
  // Two transactions open at once: a PostgreSQL server's (the embedded database runs one at a time).
  it.runIf(usingServerDatabase())(
    'an open transaction with an order does not hold up another order of the organization',
    async () => {
      const org = await organizationFactory(server);
      const customer = await customerFactory(server, org.organization.id);
      const bundle = await productFactory(server, org.organization.id);
      const prefix = org.organization.customer_invoice_prefix;
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      let created = (_id: string) => {};
      const createdId = new Promise<string>((resolve) => (created = resolve));
      const open = server.runtime.database.db.transaction().execute(async (db) => {
        const order = await createOrder(
          server.runtime.context(db),
          orderInput(org.organization.id, customer.id, bundle.product.id),
        );
        created(order.id);
        await released;
        return order;
      });
      const firstId = await createdId;
      // Committed while the first transaction is still open (it would wait for it if the first held
      // the sequence row): it takes number 1.
      const second = await orderFactory(server, org.organization.id, { customer, product: bundle });
      expect(await invoiceNumber(second.id)).toBe(`${prefix}-0001`);
      release();
      await open;
      expect(await invoiceNumber(firstId)).toBe(`${prefix}-0002`);
    },
  );

  it('numbers the orders of one transaction consecutively, in the order they were created', async () => {
    const org = await organizationFactory(server);
    const customer = await customerFactory(server, org.organization.id);
    const bundle = await productFactory(server, org.organization.id);
    await orderFactory(server, org.organization.id, { customer, product: bundle });
    const ids = await server.runtime.database.db.transaction().execute(async (db) => {
      const ctx = server.runtime.context(db);
      const made = [];
      for (let i = 0; i < 3; i++) {
        made.push((await createOrder(ctx, orderInput(org.organization.id, customer.id, bundle.product.id))).id);
      }
      return made;
    });
    const prefix = org.organization.customer_invoice_prefix;
    expect(await Promise.all(ids.map(invoiceNumber))).toEqual([`${prefix}-0002`, `${prefix}-0003`, `${prefix}-0004`]);
  });

  it('numbers, and stores the events of, orders a transaction creates at once', async () => {
    const org = await organizationFactory(server);
    const customer = await customerFactory(server, org.organization.id);
    const bundle = await productFactory(server, org.organization.id);
    const ids = await server.runtime.database.db.transaction().execute(async (db) => {
      const ctx = server.runtime.context(db);
      const made = await Promise.all(
        Array.from({ length: 4 }, () =>
          createOrder(ctx, orderInput(org.organization.id, customer.id, bundle.product.id)),
        ),
      );
      return made.map((order) => order.id);
    });
    const prefix = org.organization.customer_invoice_prefix;
    expect((await Promise.all(ids.map(invoiceNumber))).sort()).toEqual([1, 2, 3, 4].map((n) => `${prefix}-000${n}`));
    for (const id of ids) expect(await eventsOfOrder(org.organization.id, id)).toEqual(['order.created', 'order.paid']);
  });

  it('refuses to commit an order whose number was never taken', async () => {
    const org = await organizationFactory(server);
    const order = await orderFactory(server, org.organization.id);
    const db = server.runtime.database.db;
    // As a transaction that skipped the commit hooks would leave it: the copy keeps its provisional number.
    const attempt = db.transaction().execute(async (tx) => {
      const row = await tx.selectFrom('orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
      const id = randomUUID();
      await tx
        .insertInto('orders')
        .values({
          ...row,
          id,
          invoice_number: `PROVISIONAL-${id}`,
          tax_details: JSON.stringify(row.tax_details),
          billing_address: JSON.stringify(row.billing_address),
          metadata: JSON.stringify(row.metadata),
          custom_field_data: JSON.stringify(row.custom_field_data),
        })
        .execute();
    });
    await expect(attempt).rejects.toThrow(/would commit without its invoice number/);
  });
});

describe('PATCH /v1/orders/{id}', () => {
  it('updates the billing name and address (normalized) and records order.updated', async () => {
    const order = await orderFactory(server, acme.organization.id);
    (server.clock as ManualClock).advance(1000);
    const response = await patch(order.id, { billing_name: 'Acme Buyer Inc', billing_address: ADDRESS });
    expect(response.statusCode).toBe(200);
    const updated = json(response);
    expect(updated).toMatchObject({
      billing_name: 'Acme Buyer Inc',
      billing_address: {
        line1: '1 Main St',
        line2: null,
        city: 'Springfield',
        postal_code: '12345',
        state: 'US-IL',
        country: 'US',
      },
    });
    expect(updated.modified_at).not.toBeNull();
    const recorded = (await events(acme.organization.id)).filter(
      (event) => event.type === 'order.updated' && (event.payload as { data: OrderWire }).data.id === order.id,
    );
    expect(recorded).toHaveLength(1);
    expect((recorded[0]!.payload as { data: OrderWire }).data).toEqual(updated);

    const cleared = json(await patch(order.id, { billing_name: null, billing_address: null }));
    expect(cleared).toMatchObject({ billing_name: null, billing_address: null });
  });

  it('refuses to change billing details once the invoice exists (unchanged values pass)', async () => {
    const order = await orderFactory(server, acme.organization.id, {
      billing_name: 'Frozen',
      billing_address: { line1: null, line2: null, postal_code: null, city: null, state: null, country: 'FR' },
    });
    await server.runtime.database.db
      .updateTable('orders')
      .set({ invoice_path: `invoices/${order.id}.pdf` })
      .where('id', '=', order.id)
      .execute();
    const response = await patch(order.id, { billing_name: 'Changed', billing_address: { country: 'DE' } });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail).toEqual([
      expect.objectContaining({
        loc: ['body', 'billing_name'],
        msg: 'This field cannot be updated after the invoice is generated.',
      }),
      expect.objectContaining({ loc: ['body', 'billing_address'] }),
    ]);
    expect((await patch(order.id, { billing_name: 'Frozen', billing_address: { country: 'fr' } })).statusCode).toBe(
      200,
    );
  });
});

describe('invoices', () => {
  it('accepts generation of a paid order with billing details: 202 {} and a durable request', async () => {
    const order = await orderFactory(server, acme.organization.id, {
      billing_name: 'Invoice Me',
      billing_address: { line1: '2 Rue', line2: null, postal_code: '75001', city: 'Paris', state: null, country: 'FR' },
    });
    const response = await generateInvoice(order.id);
    expect(response.statusCode).toBe(202);
    expect(response.headers['content-type']).toContain('application/json');
    expect(json(response)).toEqual({});
    const request = await server.runtime.database.db
      .selectFrom('order_invoice_requests')
      .selectAll()
      .where('order_id', '=', order.id)
      .executeTakeFirst();
    // The worker renders it in the background (invoices.int.test.ts follows it to the PDF).
    expect(request).toMatchObject({ order_id: order.id });
  });

  it('refuses a pending order (NotPaidOrder) and one without billing details (MissingInvoiceBillingDetails)', async () => {
    const pending = await orderFactory(server, acme.organization.id, {
      status: 'pending',
      billing_name: 'X',
      billing_address: { line1: null, line2: null, postal_code: null, city: null, state: null, country: 'US' },
    });
    const notPaid = await generateInvoice(pending.id);
    expect(notPaid.statusCode).toBe(422);
    expect(json(notPaid)).toEqual({
      error: 'NotPaidOrder',
      detail: `Order ${pending.id} is not paid, so an invoice cannot be generated.`,
    });
    const noBilling = await orderFactory(server, acme.organization.id, { billing_name: null, billing_address: null });
    const missing = await generateInvoice(noBilling.id);
    expect(missing.statusCode).toBe(422);
    expect(json(missing)).toEqual({
      error: 'MissingInvoiceBillingDetails',
      detail: 'Billing name and address are required to generate an invoice for this order.',
    });
    const count = await server.runtime.database.db
      .selectFrom('order_invoice_requests')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('order_id', 'in', [pending.id, noBilling.id])
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('answers 409 InvoiceAlreadyExists once generated, and the url', async () => {
    const order = await orderFactory(server, acme.organization.id);
    await server.runtime.database.db
      .updateTable('orders')
      .set({ invoice_path: `invoices/${order.id}.pdf` })
      .where('id', '=', order.id)
      .execute();
    const conflict = await generateInvoice(order.id);
    expect(conflict.statusCode).toBe(409);
    expect(json(conflict)).toEqual({
      error: 'InvoiceAlreadyExists',
      detail: `An invoice already exists for order ${order.id}.`,
    });
    const invoice = await getInvoice(order.id);
    expect(invoice.statusCode).toBe(200);
    // A short-lived signed link to the stored file (invoices.int.test.ts downloads one).
    expect(json(invoice).url).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1/v1/storage/download/invoices/${order.id}\\.pdf\\?expires=\\d+&`),
    );
    expect(json(await get(order.id)).is_invoice_generated).toBe(true);
  });
});

describe('GET /v1/orders/', () => {
  let org: OrganizationFixture;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    org = await organizationFactory(server, { name: 'Listing' });
    const id = org.organization.id;
    const alice = await customerFactory(server, id, { email: 'alice@example.com' });
    const bob = await customerFactory(server, id, { email: 'bob@example.com' });
    const oneTime = await productFactory(server, id, { name: 'B one-time' });
    const monthly = await productFactory(server, id, {
      name: 'A monthly',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 500 }],
    });
    const discount = await discountFactory(server, id, { name: 'Launch' });
    const clock = server.clock as ManualClock;
    const make = async (key: string, options: Parameters<typeof orderFactory>[2]) => {
      clock.advance(60_000);
      ids[key] = (await orderFactory(server, id, options)).id;
    };
    ids.checkout = randomUUID();
    ids.subscription = randomUUID();
    await make('a', { customer: alice, product: oneTime, subtotal_amount: 3000, metadata: { tier: 'gold' } });
    await make('b', { customer: bob, product: monthly, subtotal_amount: 500, subscription_id: ids.subscription });
    await make('c', {
      customer: alice,
      product: oneTime,
      subtotal_amount: 2000,
      discount_id: discount.id,
      discount_amount: 200,
      checkout_id: ids.checkout,
      metadata: { tier: 'silver' },
    });
    await make('d', { customer: bob, product: oneTime, subtotal_amount: 100, metadata: { tier: 'gold', n: 1 } });
    await make('e', { customer: alice, product: monthly, subtotal_amount: 500 });
    ids.alice = alice.id;
    ids.bob = bob.id;
    ids.oneTime = oneTime.product.id;
    ids.monthly = monthly.product.id;
    ids.discount = discount.id;
  });

  const names = async (query: string) => {
    const response = await list(query, org.token);
    expect(response.statusCode).toBe(200);
    const body = json(response);
    const byId = Object.fromEntries(Object.entries(ids).map(([key, value]) => [value, key]));
    return body.items.map((order: OrderWire) => byId[order.id]);
  };

  it('lists newest first by default, only the organization’s orders', async () => {
    expect(await names('')).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(await names(`organization_id=${acme.organization.id}`)).toEqual([]);
  });

  it('filters by product, billing type, discount, customer, checkout and metadata', async () => {
    expect(await names(`product_id=${ids.monthly}`)).toEqual(['e', 'b']);
    expect(await names(`product_id=${ids.monthly}&product_id=${ids.oneTime}`)).toHaveLength(5);
    expect(await names('product_billing_type=recurring')).toEqual(['e', 'b']);
    expect(await names('product_billing_type=one_time')).toEqual(['d', 'c', 'a']);
    expect(await names('product_billing_type=one_time&product_billing_type=recurring')).toHaveLength(5);
    expect(await names(`discount_id=${ids.discount}`)).toEqual(['c']);
    expect(await names(`customer_id=${ids.bob}`)).toEqual(['d', 'b']);
    expect(await names(`checkout_id=${ids.checkout}`)).toEqual(['c']);
    expect(await names(`organization_id=${org.organization.id}&customer_id=${ids.alice}`)).toEqual(['e', 'c', 'a']);
    expect(await names('metadata[tier]=gold')).toEqual(['d', 'a']);
    expect(await names('metadata[tier]=gold&metadata[tier]=silver')).toEqual(['d', 'c', 'a']);
    expect(await names('metadata[tier]=gold&metadata[n]=1')).toEqual(['d']);
  });

  it('sorts by every key, a leading minus reversing', async () => {
    expect(await names('sorting=created_at')).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(await names('sorting=-amount&sorting=created_at')).toEqual(['a', 'c', 'b', 'e', 'd']);
    expect(await names('sorting=net_amount&sorting=created_at')).toEqual(['d', 'b', 'e', 'c', 'a']);
    expect(await names('sorting=customer&sorting=created_at')).toEqual(['a', 'c', 'e', 'b', 'd']);
    expect(await names('sorting=-customer&sorting=created_at')).toEqual(['b', 'd', 'a', 'c', 'e']);
    expect(await names('sorting=product&sorting=created_at')).toEqual(['b', 'e', 'a', 'c', 'd']);
    expect((await names('sorting=discount'))[0]).toBe('c');
    expect((await names('sorting=-discount'))[0]).toBe('c');
    expect((await names('sorting=subscription'))[0]).toBe('b');
  });

  it('pages with limit, max_page and total_count over several pages', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const body = json(await list(`limit=2&page=${page}&sorting=created_at`, org.token));
      expect(body.pagination).toEqual({ total_count: 5, max_page: 3 });
      expect(body.items).toHaveLength(page < 3 ? 2 : 1);
      seen.push(...body.items.map((order: OrderWire) => order.id));
    }
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e'].map((key) => ids[key]));
    const past = json(await list('limit=2&page=9', org.token));
    expect(past).toEqual({ items: [], pagination: { total_count: 5, max_page: 3 } });
  });
});
