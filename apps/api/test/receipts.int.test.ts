import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderFactory } from './factories/orders.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { paidOrderFactory } from './factories/refunds.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

/**
 * Receipts end to end (GET /v1/orders/{id}/receipt and the portal's): 202 while the worker renders the
 * PDF, then a signed link to it; a refund makes the next request render it again.
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

const seller = (path: string, token: string | null = acme.token) =>
  server.inject({ method: 'GET', url: `/v1/orders/${path}`, headers: token ? bearer(token) : {} });

const portal = (path: string, token: string | undefined) =>
  server.inject({ method: 'GET', url: `/v1/customer-portal/orders/${path}`, headers: token ? bearer(token) : {} });

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

async function receiptPath(id: string): Promise<string | null> {
  const row = await server.runtime.database.db
    .selectFrom('orders')
    .select('receipt_path')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.receipt_path;
}

/** Asks until the receipt is there (200), checking each answer before it is 202 with no body. */
async function receiptLink(ask: () => ReturnType<typeof seller>, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await ask();
    if (response.statusCode === 200) {
      const body = json(response);
      expect(Object.keys(body)).toEqual(['url']);
      return body.url;
    }
    expect(response.statusCode).toBe(202);
    expect(response.body).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the receipt was not rendered');
}

function download(url: string) {
  const parsed = new URL(url);
  return server.inject({ method: 'GET', url: parsed.pathname + parsed.search });
}

function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');
}

describe('seller auth matrix', () => {
  it('answers 401 without a token, 403 without the orders scope, 404 elsewhere, 422 for a bad id', async () => {
    const order = await orderFactory(server, acme.organization.id);
    const foreign = await orderFactory(server, other.organization.id);
    expect((await seller(`${order.id}/receipt`, null)).statusCode).toBe(401);
    const unrelated = await tokenFactory(server, acme.organization.id, ['products:read']);
    const denied = await seller(`${order.id}/receipt`, unrelated);
    expect(denied.statusCode).toBe(403);
    expect(json(denied).error).toBe('insufficient_scope');
    for (const id of [foreign.id, randomUUID()]) {
      const missing = await seller(`${id}/receipt`);
      expect(missing.statusCode).toBe(404);
      expect(json(missing)).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    }
    const bad = await seller('not-a-uuid/receipt');
    expect(bad.statusCode).toBe(422);
    expect(json(bad).detail[0].loc).toEqual(['path', 'id']);
    expect(await receiptPath(foreign.id)).toBeNull();
    // The read scope is the reference's.
    const readOnly = await tokenFactory(server, acme.organization.id, ['orders:read']);
    expect([200, 202]).toContain((await seller(`${order.id}/receipt`, readOnly)).statusCode);
  });

  it('has no receipt for an order never paid: 404, and nothing is rendered', async () => {
    const pending = await orderFactory(server, acme.organization.id, { status: 'pending' });
    const response = await seller(`${pending.id}/receipt`);
    expect(response.statusCode).toBe(404);
    expect(json(response)).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    expect(await receiptPath(pending.id)).toBeNull();
  });
});

describe('rendering', () => {
  it('answers 202 until rendered, then the link of a PDF with the exact amounts, the card and the date', async () => {
    const purchase = await paidOrderFactory(server, acme, { tax: 250 });
    const first = await seller(`${purchase.orderId}/receipt`);
    expect(first.statusCode).toBe(202);
    expect(first.body).toBe('');

    const url = await receiptLink(() => seller(`${purchase.orderId}/receipt`));
    const file = await download(url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    const order = await server.runtime.database.db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', purchase.orderId)
      .executeTakeFirstOrThrow();
    expect(file.headers['content-disposition']).toContain(`filename="Receipt-${order.invoice_number}.pdf"`);
    const text = pdfText(file.rawPayload);
    for (const expected of ['Receipt', order.invoice_number, 'Acme Widgets', '$10.00', '$2.50']) {
      expect(text, expected).toContain(expected);
    }
    expect(text).toMatch(/Total\s+\$12\.50/);
    expect(text).toMatch(/Amount paid\s+\$12\.50/);
    expect(text).toMatch(/Paid on \w+ \d+, \d{4} with Visa ending in 4242\./);
    expect(text).not.toContain('Refunded');
    expect(await receiptPath(purchase.orderId)).toBe(`receipts/${acme.organization.id}/${purchase.orderId}/0-0.pdf`);
    // Stored once: asking again answers the same receipt at once.
    expect((await seller(`${purchase.orderId}/receipt`)).statusCode).toBe(200);
  });

  it('renders again after a refund: the refunded amount with its tax and the net paid', async () => {
    const purchase = await paidOrderFactory(server, acme, { tax: 200 });
    await receiptLink(() => seller(`${purchase.orderId}/receipt`));
    const refund = await server.inject({
      method: 'POST',
      url: '/v1/refunds/',
      headers: bearer(acme.token),
      payload: { order_id: purchase.orderId, reason: 'customer_request', amount: 400 },
    });
    expect(refund.statusCode).toBe(200);
    expect(json(refund)).toMatchObject({ amount: 400, tax_amount: 80 });

    const stale = await seller(`${purchase.orderId}/receipt`);
    expect(stale.statusCode).toBe(202);
    const text = pdfText((await download(await receiptLink(() => seller(`${purchase.orderId}/receipt`)))).rawPayload);
    expect(text).toMatch(/Amount paid\s+\$12\.00/);
    expect(text).toMatch(/Refunded\s+-\$4\.80/);
    expect(text).toMatch(/Net paid\s+\$7\.20/);
    expect(text).toContain('$4.80 (including $0.80 of tax) was refunded to the customer.');
    expect(await receiptPath(purchase.orderId)).toBe(`receipts/${acme.organization.id}/${purchase.orderId}/400-80.pdf`);
  });
});

describe('customer portal', () => {
  it("answers 401 without a session, 404 for another customer's or organization's order, 422 for a bad id", async () => {
    const mine = await paidOrderFactory(server, acme);
    const theirs = await paidOrderFactory(server, acme);
    const elsewhere = await paidOrderFactory(server, other);
    const token = await sessionFor(mine.customerId);
    expect((await portal(`${mine.orderId}/receipt`, undefined)).statusCode).toBe(401);
    expect(json(await portal(`${mine.orderId}/receipt`, acme.token)).error).toBe('invalid_token');
    for (const id of [theirs.orderId, elsewhere.orderId, randomUUID()]) {
      const response = await portal(`${id}/receipt`, token);
      expect(response.statusCode).toBe(404);
      expect(json(response)).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    }
    expect((await portal('not-a-uuid/receipt', token)).statusCode).toBe(422);
    expect(await receiptPath(theirs.orderId)).toBeNull();
  });

  it("gives the customer the same receipt as the seller's", async () => {
    const purchase = await paidOrderFactory(server, acme);
    const token = await sessionFor(purchase.customerId);
    const url = await receiptLink(() => portal(`${purchase.orderId}/receipt`, token));
    const text = pdfText((await download(url)).rawPayload);
    expect(text).toMatch(/Amount paid\s+\$10\.00/);
    expect(await receiptPath(purchase.orderId)).toBe(`receipts/${acme.organization.id}/${purchase.orderId}/0-0.pdf`);
  });
});
