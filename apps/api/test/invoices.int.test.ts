import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../src/platform/clock.js';
import type { JobRun } from '../src/platform/jobs/queue.js';
import { generateInvoice, INVOICE_LINK_TTL_SECONDS } from '../src/modules/orders/orders.invoice.js';
import type { OrderWire } from '../src/modules/orders/orders.serializer.js';
import { customerFactory } from './factories/customers.js';
import { discountFactory } from './factories/discounts.js';
import { orderFactory, type OrderFactoryOptions } from './factories/orders.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

/**
 * Invoices end to end: requested by the seller or the customer, rendered to PDF by the worker, stored,
 * and downloaded by a signed link; the portal's billing details update.
 */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme Widgets' });
  other = await organizationFactory(server, { name: 'Other' });
});
afterAll(() => server?.stop());

const ADDRESS = {
  line1: '1 Main St',
  line2: null,
  postal_code: '62701',
  city: 'Springfield',
  state: 'US-IL',
  country: 'US',
} as const;

function paidOrder(organizationId: string, options: OrderFactoryOptions = {}): Promise<OrderWire> {
  return orderFactory(server, organizationId, { billing_name: 'Jane Buyer', billing_address: ADDRESS, ...options });
}

const seller = (method: 'GET' | 'POST' | 'PATCH', path: string, token: string | null = acme.token, payload?: unknown) =>
  server.inject({
    method,
    url: `/v1/orders/${path}`,
    headers: token ? bearer(token) : {},
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

const portal = (method: 'GET' | 'POST' | 'PATCH', path: string, token: string | undefined, payload?: unknown) =>
  server.inject({
    method,
    url: `/v1/customer-portal/orders/${path}`,
    headers: token ? bearer(token) : {},
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

async function sessionFor(customerId: string, org: OrganizationFixture = acme): Promise<string> {
  const response = await server.inject({
    method: 'POST',
    url: '/v1/customer-sessions/',
    headers: bearer(org.token),
    payload: { customer_id: customerId },
  });
  expect(response.statusCode).toBe(201);
  return json(response).token;
}

async function orderRow(id: string) {
  return server.runtime.database.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Waits until the worker has rendered the order's invoice. */
async function waitForInvoice(id: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await orderRow(id)).invoice_path !== null) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the invoice of ${id} was not rendered`);
}

/** Downloads a signed link through the server (its path and query). */
function download(url: string) {
  const parsed = new URL(url);
  return server.inject({ method: 'GET', url: parsed.pathname + parsed.search });
}

/** The text of a PDF, as Debian's poppler-utils extracts it. */
function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');
}

async function invoiceText(orderId: string, token = acme.token): Promise<string> {
  const link = await seller('GET', `${orderId}/invoice`, token);
  expect(link.statusCode).toBe(200);
  const file = await download(json(link).url);
  expect(file.statusCode).toBe(200);
  return pdfText(file.rawPayload);
}

async function eventsAbout(organizationId: string, id: string) {
  const rows = await server.runtime.database.db
    .selectFrom('webhook_events')
    .select(['type', 'payload'])
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows
    .map((row) => row.payload as { type: string; data: { id: string; is_invoice_generated?: boolean } })
    .filter((event) => event.data.id === id);
}

describe('seller auth matrix', () => {
  it('answers 401 without a token, 403 without the orders scope, 404 for another organization', async () => {
    const order = await paidOrder(acme.organization.id);
    const foreign = await paidOrder(other.organization.id);
    const unrelated = await tokenFactory(server, acme.organization.id, ['products:read']);
    for (const method of ['POST', 'GET'] as const) {
      expect((await seller(method, `${order.id}/invoice`, null)).statusCode).toBe(401);
      const denied = await seller(method, `${order.id}/invoice`, unrelated);
      expect(denied.statusCode).toBe(403);
      expect(json(denied).error).toBe('insufficient_scope');
      expect(json(await seller(method, `${foreign.id}/invoice`))).toEqual({
        error: 'ResourceNotFound',
        detail: 'Not found',
      });
      expect((await seller(method, `${randomUUID()}/invoice`)).statusCode).toBe(404);
      expect((await seller(method, 'not-a-uuid/invoice')).statusCode).toBe(422);
    }
    // The read scope is enough to ask for one, as the reference.
    const readOnly = await tokenFactory(server, acme.organization.id, ['orders:read']);
    expect((await seller('POST', `${order.id}/invoice`, readOnly)).statusCode).toBe(202);
    expect((await orderRow(foreign.id)).invoice_path).toBeNull();
  });
});

describe('customer portal auth matrix', () => {
  it("answers 401 without a session, 404 for another customer's or organization's order, 422 for bad bodies", async () => {
    const mine = await paidOrder(acme.organization.id);
    const theirs = await paidOrder(acme.organization.id);
    const elsewhere = await paidOrder(other.organization.id);
    const token = await sessionFor(mine.customer_id);
    const routes = [
      ['PATCH', '', { billing_name: 'X', billing_address: null }],
      ['POST', '/invoice', undefined],
      ['GET', '/invoice', undefined],
    ] as const;
    for (const [method, suffix, body] of routes) {
      expect((await portal(method, `${mine.id}${suffix}`, undefined, body)).statusCode).toBe(401);
      expect(json(await portal(method, `${mine.id}${suffix}`, acme.token, body)).error).toBe('invalid_token');
      for (const id of [theirs.id, elsewhere.id, randomUUID()]) {
        const response = await portal(method, `${id}${suffix}`, token, body);
        expect(response.statusCode, `${method} ${suffix}`).toBe(404);
        expect(json(response)).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
      }
    }
    for (const body of [{}, { billing_name: 'X' }, { billing_name: 'X', billing_address: { country: 'ZZ' } }]) {
      const response = await portal('PATCH', mine.id, token, body);
      expect(response.statusCode).toBe(422);
      expect(json(response).detail[0].loc[0]).toBe('body');
    }
    expect((await orderRow(theirs.id)).billing_name).toBe('Jane Buyer');
    expect((await orderRow(mine.id)).billing_name).toBe('Jane Buyer');
    expect((await orderRow(theirs.id)).invoice_path).toBeNull();
  });
});

describe('rendering', () => {
  it('renders the number, both parties, every line and the totals, and says so with order.updated', async () => {
    const customer = await customerFactory(server, acme.organization.id, {
      name: 'Jane Buyer',
      tax_id: ['DE123456789', 'eu_vat'],
      billing_address: { country: 'DE' },
    } as never);
    const bundle = await productFactory(server, acme.organization.id, { name: 'Pro plan' });
    const discount = await discountFactory(server, acme.organization.id, { name: 'Launch' } as never);
    const order = await paidOrder(acme.organization.id, {
      customer,
      product: bundle,
      discount_id: discount.id,
      billing_name: 'Jane Buyer GmbH',
      billing_address: {
        line1: 'Hauptstr. 5',
        line2: null,
        postal_code: '10115',
        city: 'Berlin',
        state: null,
        country: 'DE',
      },
      currency: 'eur',
      items: [
        { label: 'Pro plan', amount: 3000, tax_amount: 0, proration: false, product_price_id: null },
        { label: 'Remaining time on Basic', amount: -1000, tax_amount: 0, proration: true, product_price_id: null },
        { label: 'API calls: 1,500 units', amount: 1500, tax_amount: 0, proration: false, product_price_id: null },
      ],
      subtotal_amount: 3500,
      discount_amount: 350,
      tax_amount: 599,
    });
    const accepted = await seller('POST', `${order.id}/invoice`);
    expect(accepted.statusCode).toBe(202);
    expect(json(accepted)).toEqual({});
    await waitForInvoice(order.id);

    const link = json(await seller('GET', `${order.id}/invoice`));
    expect(Object.keys(link)).toEqual(['url']);
    const file = await download(link.url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    const number = (await orderRow(order.id)).invoice_number;
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="Invoice-${number}.pdf"; filename*=UTF-8''Invoice-${number}.pdf`,
    );
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(file.rawPayload);
    for (const expected of [
      'Invoice',
      number,
      'January 15, 2026',
      'Acme Widgets',
      'Jane Buyer GmbH',
      'Hauptstr. 5',
      '10115 Berlin',
      'Germany',
      'EU VAT DE123456789',
      'Pro plan',
      '€30.00',
      'Remaining time on Basic',
      '-€10.00',
      'Proration',
      'API calls: 1,500 units',
      '€15.00',
      'Discount (Launch)',
      '-€3.50',
      '€5.99',
      '€37.49',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).toMatch(/Total\s+€37\.49/);
    expect(text).not.toContain('Refunded');

    expect(json(await seller('GET', order.id)).is_invoice_generated).toBe(true);
    const updates = (await eventsAbout(acme.organization.id, order.id)).filter((e) => e.type === 'order.updated');
    expect(updates.at(-1)?.data.is_invoice_generated).toBe(true);
    const request = await server.runtime.database.db
      .selectFrom('order_invoice_requests')
      .selectAll()
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(request.generated_at).not.toBeNull();

    const again = await seller('POST', `${order.id}/invoice`);
    expect(again.statusCode).toBe(409);
    expect(json(again)).toEqual({
      error: 'InvoiceAlreadyExists',
      detail: `An invoice already exists for order ${order.id}.`,
    });
  });

  it('notes a refund', async () => {
    const order = await paidOrder(acme.organization.id, { subtotal_amount: 2000, tax_amount: 200 });
    await server.runtime.database.db
      .updateTable('orders')
      .set({ status: 'partially_refunded', refunded_amount: 500, refunded_tax_amount: 50 })
      .where('id', '=', order.id)
      .execute();
    expect((await seller('POST', `${order.id}/invoice`)).statusCode).toBe(202);
    await waitForInvoice(order.id);
    const text = await invoiceText(order.id);
    expect(text).toMatch(/Refunded\s+-\$5\.50/);
    expect(text).toContain('This order was partly refunded: $5.50 (including $0.50 of tax) went back to the customer.');
  });

  it('refuses unpaid orders and orders without billing details, in the order of the reference, and renders nothing', async () => {
    const pending = await paidOrder(acme.organization.id, {
      status: 'pending',
      billing_name: null,
      billing_address: null,
    });
    const notPaid = await seller('POST', `${pending.id}/invoice`);
    expect(notPaid.statusCode).toBe(422);
    expect(json(notPaid)).toEqual({
      error: 'NotPaidOrder',
      detail: `Order ${pending.id} is not paid, so an invoice cannot be generated.`,
    });
    for (const missing of [{ billing_address: null }, { billing_name: null }]) {
      const order = await paidOrder(acme.organization.id, missing);
      const response = await seller('POST', `${order.id}/invoice`);
      expect(response.statusCode).toBe(422);
      expect(json(response)).toEqual({
        error: 'MissingInvoiceBillingDetails',
        detail: 'Billing name and address are required to generate an invoice for this order.',
      });
    }
    const none = await seller('GET', `${pending.id}/invoice`);
    expect(none.statusCode).toBe(404);
    expect(json(none)).toEqual({ error: 'InvoiceDoesNotExist', detail: `No invoice exists for order ${pending.id}.` });
    const requests = await server.runtime.database.db
      .selectFrom('order_invoice_requests')
      .select('order_id')
      .where('order_id', '=', pending.id)
      .execute();
    expect(requests).toEqual([]);
  });
});

describe('numbering', () => {
  it('gives concurrently created and invoiced orders consecutive numbers, without gaps or duplicates', async () => {
    const org = await organizationFactory(server, { name: 'Numbered' });
    const customer = await customerFactory(server, org.organization.id);
    const product = await productFactory(server, org.organization.id);
    const count = 12;
    const orders = await Promise.all(
      Array.from({ length: count }, () => paidOrder(org.organization.id, { customer, product })),
    );
    const accepted = await Promise.all(orders.map((order) => seller('POST', `${order.id}/invoice`, org.token)));
    expect(accepted.map((response) => response.statusCode)).toEqual(orders.map(() => 202));
    await Promise.all(orders.map((order) => waitForInvoice(order.id)));

    const prefix = org.organization.customer_invoice_prefix;
    const printed: string[] = [];
    for (const order of orders) {
      const text = await invoiceText(order.id, org.token);
      const numbers = text.match(new RegExp(`${prefix}-\\d{4}`, 'g')) ?? [];
      expect(new Set(numbers).size).toBe(1);
      expect(numbers[0]).toBe((await orderRow(order.id)).invoice_number);
      printed.push(numbers[0]!);
    }
    const expected = Array.from({ length: count }, (_, i) => `${prefix}-${String(i + 1).padStart(4, '0')}`);
    expect([...printed].sort()).toEqual(expected);
  });
});

describe('the generation job', () => {
  /** A JobRun on the server's database whose transactions can be watched. */
  function jobRun(before?: (n: number) => Promise<void>): JobRun {
    let n = 0;
    return {
      transaction: async (fn) => {
        n += 1;
        await before?.(n);
        return server.runtime.database.db.transaction().execute((tx) => fn(server.runtime.context(tx)));
      },
    };
  }

  it('is idempotent: a second run leaves the invoice alone', async () => {
    const order = await paidOrder(acme.organization.id);
    const ctx = server.context();
    expect(await generateInvoice(ctx, order.id, jobRun())).toBe('generated');
    const path = (await orderRow(order.id)).invoice_path;
    expect(await generateInvoice(ctx, order.id, jobRun())).toBe('already_generated');
    expect((await orderRow(order.id)).invoice_path).toBe(path);
    const updates = (await eventsAbout(acme.organization.id, order.id)).filter((e) => e.type === 'order.updated');
    expect(updates).toHaveLength(1);
  });

  it('renders again when the order changed while it was rendered, so the PDF is the latest', async () => {
    const order = await paidOrder(acme.organization.id, { billing_name: 'Old Name' });
    const ctx = server.context();
    const changeBetween = jobRun(async (n) => {
      if (n === 2)
        expect(
          (await seller('PATCH', order.id, acme.token, { billing_name: 'New Name', billing_address: ADDRESS }))
            .statusCode,
        ).toBe(200);
    });
    await expect(generateInvoice(ctx, order.id, changeBetween)).rejects.toThrow(
      'changed while its invoice was rendered',
    );
    expect((await orderRow(order.id)).invoice_path).toBeNull();
    expect(await generateInvoice(ctx, order.id, jobRun())).toBe('generated');
    const text = await invoiceText(order.id);
    expect(text).toContain('New Name');
    expect(text).not.toContain('Old Name');
  });
});

describe('signed links', () => {
  it('refuses a tampered link (403) and an expired one (410); a new link works again', async () => {
    const order = await paidOrder(acme.organization.id);
    const second = await paidOrder(acme.organization.id);
    expect((await seller('POST', `${order.id}/invoice`)).statusCode).toBe(202);
    expect((await seller('POST', `${second.id}/invoice`)).statusCode).toBe(202);
    await waitForInvoice(order.id);
    await waitForInvoice(second.id);
    const url = new URL(json(await seller('GET', `${order.id}/invoice`)).url);
    expect(url.origin).toBe('http://127.0.0.1');
    expect(url.pathname).toBe(`/v1/storage/download/invoices/${acme.organization.id}/${order.id}.pdf`);
    expect((await download(url.toString())).statusCode).toBe(200);

    const tampered = (change: (u: URL) => void) => {
      const copy = new URL(url);
      change(copy);
      return download(copy.toString());
    };
    const forbidden = { error: 'NotPermitted', detail: 'This download link is not valid.' };
    const attempts: ((u: URL) => void)[] = [
      (u) =>
        u.searchParams.set(
          'signature',
          u.searchParams.get('signature')!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
        ),
      (u) => u.searchParams.delete('signature'),
      (u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600)),
      (u) => u.searchParams.set('filename', 'other.pdf'),
      (u) => (u.pathname = u.pathname.replace(order.id, second.id)),
      (u) => (u.pathname = u.pathname.replace(`invoices/${acme.organization.id}`, 'invoices/..')),
    ];
    for (const change of attempts) {
      const response = await tampered(change);
      expect(response.statusCode).toBe(403);
      expect(json(response)).toEqual(forbidden);
    }

    (server.clock as ManualClock).advance(INVOICE_LINK_TTL_SECONDS * 1000);
    const expired = await download(url.toString());
    expect(expired.statusCode).toBe(410);
    expect(json(expired)).toEqual({ error: 'ResourceUnavailable', detail: 'This download link has expired.' });
    expect((await download(json(await seller('GET', `${order.id}/invoice`)).url)).statusCode).toBe(200);
  });
});

describe('customer portal', () => {
  it('updates billing details (order.updated), then generates and downloads the invoice; frozen afterwards', async () => {
    const order = await paidOrder(acme.organization.id, { billing_address: null });
    const token = await sessionFor(order.customer_id);

    const missing = await portal('POST', `${order.id}/invoice`, token);
    expect(missing.statusCode).toBe(422);
    expect(json(missing).error).toBe('MissingInvoiceBillingDetails');

    const address = { line1: '9 Elm Rd', postal_code: '90210', city: 'Beverly Hills', state: 'CA', country: 'US' };
    const updated = await portal('PATCH', order.id, token, { billing_name: 'Jane Q. Buyer', billing_address: address });
    expect(updated.statusCode).toBe(200);
    const body = json(updated);
    expect(body.billing_name).toBe('Jane Q. Buyer');
    expect(body.billing_address).toEqual({ ...address, line2: null, state: 'US-CA' });
    expect(body).not.toHaveProperty('metadata');
    expect(body.product.organization.id).toBe(acme.organization.id);
    const updates = (await eventsAbout(acme.organization.id, order.id)).filter((e) => e.type === 'order.updated');
    expect(updates).toHaveLength(1);

    const none = await portal('GET', `${order.id}/invoice`, token);
    expect(none.statusCode).toBe(404);
    expect(json(none).error).toBe('InvoiceDoesNotExist');
    const accepted = await portal('POST', `${order.id}/invoice`, token);
    expect(accepted.statusCode).toBe(202);
    expect(json(accepted)).toEqual({});
    await waitForInvoice(order.id);
    expect(json(await portal('GET', order.id, token)).is_invoice_generated).toBe(true);
    const link = await portal('GET', `${order.id}/invoice`, token);
    expect(link.statusCode).toBe(200);
    const text = pdfText((await download(json(link).url)).rawPayload);
    expect(text).toContain('Jane Q. Buyer');
    expect(text).toContain('9 Elm Rd');
    expect(text).toContain('90210 Beverly Hills, CA');

    expect((await portal('POST', `${order.id}/invoice`, token)).statusCode).toBe(409);
    const frozen = await portal('PATCH', order.id, token, { billing_name: 'Someone Else', billing_address: address });
    expect(frozen.statusCode).toBe(422);
    expect(json(frozen).detail).toEqual([
      {
        loc: ['body', 'billing_name'],
        msg: 'This field cannot be updated after the invoice is generated.',
        type: 'value_error',
      },
    ]);
    // The same values again change nothing and pass.
    expect(
      (await portal('PATCH', order.id, token, { billing_name: 'Jane Q. Buyer', billing_address: address })).statusCode,
    ).toBe(200);
    expect((await orderRow(order.id)).billing_name).toBe('Jane Q. Buyer');
  });

  it('refuses an unpaid order (NotPaidOrder)', async () => {
    const order = await paidOrder(acme.organization.id, { status: 'pending' });
    const token = await sessionFor(order.customer_id);
    const response = await portal('POST', `${order.id}/invoice`, token);
    expect(response.statusCode).toBe(422);
    expect(json(response).error).toBe('NotPaidOrder');
  });
});
