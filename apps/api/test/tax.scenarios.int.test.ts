import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REVERSE_CHARGE_NOTE } from '../src/modules/billing/billing.tax.js';
import { checkoutFactory, confirmationToken } from './factories/checkouts.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { json, startTestServer, type TestServer } from './harness.js';
import { installProcessorGuard, type ProcessorGuard } from './support/processor-guard.js';

/**
 * Tax end to end over HTTP (docs/tax.md): a French seller registered for VAT in France (20 %) and for
 * sales tax in California (7.25 %), buyers picking their country at checkout, a reverse-charged German
 * business, a renewal after the rate changed, a partial refund's tax portion, and the report.
 */
let server: TestServer;
let maison: OrganizationFixture;
let other: OrganizationFixture;
let guard: ProcessorGuard;
let franceRegistrationId: string;
const hasPdfToText = existsSync('/usr/bin/pdftotext');

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  guard = installProcessorGuard();
  server = await startTestServer();
  maison = await organizationFactory(server, { name: 'Maison' });
  other = await organizationFactory(server, { name: 'Other' });
  const settings = await server.inject({
    method: 'PATCH',
    url: '/v1/tax-settings/',
    headers: auth(maison.token),
    payload: { home_country: 'FR' },
  });
  expect(settings.statusCode).toBe(200);
  for (const registration of [
    { country: 'FR', rate_basis_points: 2000, label: 'VAT' },
    { country: 'US', state: 'CA', rate_basis_points: 725, label: 'Sales tax' },
    { country: 'DE', rate_basis_points: 1900, label: 'MwSt' },
  ]) {
    const created = await server.inject({
      method: 'POST',
      url: '/v1/tax-registrations/',
      headers: auth(maison.token),
      payload: registration,
    });
    expect(created.statusCode, created.body).toBe(201);
    if (registration.country === 'FR') franceRegistrationId = json(created).id;
  }
});
afterAll(async () => {
  await server?.stop();
  guard?.uninstall();
});
afterEach(() => {
  expect(guard.violations.map((violation) => `${violation.method}\n${violation.stack}`)).toEqual([]);
});

const PARIS = { country: 'FR', line1: '1 rue de Rivoli', city: 'Paris', postal_code: '75001' };
const SAN_FRANCISCO = { country: 'US', state: 'CA', line1: '1 Market St', city: 'San Francisco', postal_code: '94105' };
const TOKYO = { country: 'JP', line1: '1 Chiyoda', city: 'Tokyo', postal_code: '100-0001' };
const BERLIN = { country: 'DE', line1: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117' };

async function openCheckout(organization: OrganizationFixture, productOverrides: Record<string, unknown> = {}) {
  const { product } = await productFactory(server, organization.organization.id, productOverrides);
  return checkoutFactory(server, organization.organization.id, [product.id]);
}

const update = (secret: string, payload: object) =>
  server.inject({ method: 'PATCH', url: `/v1/checkouts/client/${secret}`, payload });

async function confirm(secret: string, payload: object) {
  const response = await server.inject({
    method: 'POST',
    url: `/v1/checkouts/client/${secret}/confirm`,
    payload: {
      customer_email: 'buyer@example.com',
      customer_name: 'Bea Buyer',
      confirmation_token_id: await confirmationToken(server),
      ...payload,
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return json(response);
}

async function orderOfCheckout(checkoutId: string) {
  const db = server.runtime.database.db;
  const order = await db
    .selectFrom('orders')
    .selectAll()
    .where('checkout_id', '=', checkoutId)
    .executeTakeFirstOrThrow();
  const items = await db.selectFrom('order_items').selectAll().where('order_id', '=', order.id).execute();
  return { order, items };
}

describe('checkout', () => {
  it('is null until the buyer picks a country, then follows the country as it changes', async () => {
    const checkout = await openCheckout(maison);
    expect(checkout.tax_amount).toBeNull();
    expect(checkout.total_amount).toBe(1000);

    const steps: [object, number, number][] = [
      [PARIS, 200, 1200],
      [SAN_FRANCISCO, 73, 1073], // 7.25 % of $10.00 = 72.5 → 73 (half up)
      [TOKYO, 0, 1000], // not registered in Japan
      [PARIS, 200, 1200],
    ];
    for (const [address, tax, total] of steps) {
      const response = await update(checkout.client_secret, { customer_billing_address: address });
      expect(response.statusCode, response.body).toBe(200);
      expect(json(response)).toMatchObject({ net_amount: 1000, tax_amount: tax, total_amount: total });
    }
  });

  it('in France at 20 %: the order, its item and its tax details carry it, and the buyer pays the total', async () => {
    const checkout = await openCheckout(maison);
    await confirm(checkout.client_secret, { customer_billing_address: PARIS });
    const { order, items } = await orderOfCheckout(checkout.id);
    expect(order).toMatchObject({ net_amount: 1000, tax_amount: 200, total_amount: 1200 });
    expect(items.map((item) => [item.amount, item.tax_amount])).toEqual([[1000, 200]]);
    expect(order.tax_details).toMatchObject({
      provider: 'registrations',
      country: 'FR',
      rate_basis_points: 2000,
      label: 'VAT',
      taxable_amount: 1000,
      tax_amount: 200,
      reverse_charge: false,
      note: null,
    });
    const payment = await server.runtime.database.db
      .selectFrom('payments')
      .select('amount')
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(payment.amount).toBe(1200);
  });

  it('in California at the state rate', async () => {
    const checkout = await openCheckout(maison, { prices: [{ amount_type: 'fixed', price_amount: 2000 }] });
    await confirm(checkout.client_secret, { customer_billing_address: SAN_FRANCISCO });
    const { order } = await orderOfCheckout(checkout.id);
    expect(order).toMatchObject({ tax_amount: 145, total_amount: 2145 });
    expect(order.tax_details).toMatchObject({ country: 'US', state: 'US-CA', rate_basis_points: 725 });
  });

  it('in a country without registration: 0, recorded as such', async () => {
    const checkout = await openCheckout(maison);
    await confirm(checkout.client_secret, { customer_billing_address: TOKYO });
    const { order } = await orderOfCheckout(checkout.id);
    expect(order).toMatchObject({ tax_amount: 0, total_amount: 1000 });
    expect(order.tax_details).toMatchObject({ country: 'JP', rate_basis_points: 0, label: null });
  });

  it('a German business with a VAT id buying from a French seller: reverse charge, with the note', async () => {
    const checkout = await openCheckout(maison);
    const updated = await update(checkout.client_secret, {
      is_business_customer: true,
      customer_billing_name: 'Beispiel GmbH',
      customer_billing_address: BERLIN,
      customer_tax_id: 'DE123456789',
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(json(updated)).toMatchObject({ tax_amount: 0, total_amount: 1000 });
    await confirm(checkout.client_secret, { customer_billing_address: BERLIN });
    const { order } = await orderOfCheckout(checkout.id);
    expect(order.tax_amount).toBe(0);
    expect(order.tax_details).toMatchObject({ country: 'DE', reverse_charge: true, note: REVERSE_CHARGE_NOTE });
  });

  it('a French VAT id at a French seller is taxed as usual (no reverse charge)', async () => {
    const checkout = await openCheckout(maison);
    const updated = await update(checkout.client_secret, {
      is_business_customer: true,
      customer_billing_name: 'Exemple SARL',
      customer_billing_address: PARIS,
      customer_tax_id: 'FR12345678901',
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(json(updated)).toMatchObject({ tax_amount: 200, total_amount: 1200 });
  });

  it("a VAT id of another country than the billing address's is refused, changing nothing", async () => {
    // The seller's own (French) id with a German address was reverse-charged: tax 0, total 1000.
    const checkout = await openCheckout(maison);
    const before = await update(checkout.client_secret, { customer_billing_address: BERLIN });
    expect(json(before)).toMatchObject({ tax_amount: 190, total_amount: 1190 });
    for (const taxId of ['FR12345678901', 'IT12345678901']) {
      const refused = await update(checkout.client_secret, {
        is_business_customer: true,
        customer_billing_name: 'Exemple SARL',
        customer_billing_address: BERLIN,
        customer_tax_id: taxId,
      });
      expect(refused.statusCode, refused.body).toBe(422);
      expect(json(refused).detail.map((issue: { loc: string[] }) => issue.loc.at(-1))).toContain('customer_tax_id');
    }
    const after = await server.inject({ method: 'GET', url: `/v1/checkouts/client/${checkout.client_secret}` });
    expect(json(after)).toMatchObject({ customer_tax_id: null, tax_amount: 190, total_amount: 1190 });
  });

  it("a customer's VAT id is checked against the customer's billing country", async () => {
    const create = (tax_id: [string, string]) =>
      server.inject({
        method: 'POST',
        url: '/v1/customers/',
        headers: auth(maison.token),
        payload: { email: `vat-${tax_id[0]}@example.com`, billing_address: BERLIN, tax_id },
      });
    const refused = await create(['FR12345678901', 'eu_vat']);
    expect(refused.statusCode, refused.body).toBe(422);
    expect((await create(['DE123456789', 'eu_vat'])).statusCode).toBe(201);
  });

  it('an exempt product is not taxed', async () => {
    const checkout = await openCheckout(maison, { is_tax_applicable: false });
    const updated = await update(checkout.client_secret, { customer_billing_address: PARIS });
    expect(json(updated)).toMatchObject({ tax_amount: 0, total_amount: 1000 });
  });

  it('with prices that include tax, the price is split into net + tax and the buyer pays the price', async () => {
    const inclusive = await organizationFactory(server, { name: 'Inclusive' });
    await server.inject({
      method: 'PATCH',
      url: '/v1/tax-settings/',
      headers: auth(inclusive.token),
      payload: { prices_include_tax: true, home_country: 'FR' },
    });
    await server.inject({
      method: 'POST',
      url: '/v1/tax-registrations/',
      headers: auth(inclusive.token),
      payload: { country: 'FR', rate_basis_points: 2000, label: 'TVA' },
    });
    const checkout = await openCheckout(inclusive);
    const updated = await update(checkout.client_secret, { customer_billing_address: PARIS });
    expect(json(updated)).toMatchObject({ amount: 1000, net_amount: 833, tax_amount: 167, total_amount: 1000 });
    await confirm(checkout.client_secret, { customer_billing_address: PARIS });
    const { order, items } = await orderOfCheckout(checkout.id);
    expect(order).toMatchObject({ subtotal_amount: 833, net_amount: 833, tax_amount: 167, total_amount: 1000 });
    expect(items.map((item) => [item.amount, item.tax_amount])).toEqual([[833, 167]]);
  });
});

describe('renewals', () => {
  it('a renewal after the rate changed is taxed at the rate in force at the renewal; the first order keeps its own', async () => {
    const checkout = await openCheckout(maison, {
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 1000 }],
    });
    await confirm(checkout.client_secret, { customer_billing_address: PARIS });
    const first = await orderOfCheckout(checkout.id);
    expect(first.order.tax_amount).toBe(200);

    const changed = await server.inject({
      method: 'PATCH',
      url: `/v1/tax-registrations/${franceRegistrationId}`,
      headers: auth(maison.token),
      payload: { rate_basis_points: 2100 },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const advanced = await server.inject({
      method: 'POST',
      url: '/v1/test-clock/advance',
      headers: auth(maison.token),
      payload: { days: 32 },
    });
    expect(advanced.statusCode, advanced.body).toBe(200);

    const orders = await server.runtime.database.db
      .selectFrom('orders')
      .selectAll()
      .where('subscription_id', '=', first.order.subscription_id)
      .orderBy('created_at')
      .execute();
    expect(orders.map((order) => [order.billing_reason, order.tax_amount, order.total_amount])).toEqual([
      ['subscription_create', 200, 1200],
      ['subscription_cycle', 210, 1210],
    ]);
    expect(orders[1]!.tax_details).toMatchObject({ rate_basis_points: 2100, country: 'FR' });
    expect(orders[0]!.tax_details).toMatchObject({ rate_basis_points: 2000 });

    // Back to 20 % for the rest of the file.
    await server.inject({
      method: 'PATCH',
      url: `/v1/tax-registrations/${franceRegistrationId}`,
      headers: auth(maison.token),
      payload: { rate_basis_points: 2000 },
    });
  });
});

describe('refunds', () => {
  it("a partial refund gives back the tax portion of the order's stored tax", async () => {
    const checkout = await openCheckout(maison);
    await confirm(checkout.client_secret, { customer_billing_address: PARIS });
    const { order } = await orderOfCheckout(checkout.id);
    const refund = await server.inject({
      method: 'POST',
      url: '/v1/refunds/',
      headers: auth(maison.token),
      payload: { order_id: order.id, reason: 'customer_request', amount: 500 },
    });
    expect(refund.statusCode, refund.body).toBeLessThan(300);
    expect(json(refund)).toMatchObject({ amount: 500, tax_amount: 100 });
  });
});

describe('invoice', () => {
  /** The invoice of an order, rendered by the worker, as the text of its PDF. */
  async function invoiceText(orderId: string): Promise<string> {
    const requested = await server.inject({
      method: 'POST',
      url: `/v1/orders/${orderId}/invoice`,
      headers: auth(maison.token),
    });
    expect(requested.statusCode, requested.body).toBe(202);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const link = await server.inject({
        method: 'GET',
        url: `/v1/orders/${orderId}/invoice`,
        headers: auth(maison.token),
      });
      if (link.statusCode === 200) {
        const url = new URL(json(link).url as string);
        const file = await server.inject({ method: 'GET', url: url.pathname + url.search });
        return execFileSync('pdftotext', ['-layout', '-', '-'], { input: file.rawPayload }).toString('utf8');
      }
      if (Date.now() > deadline) throw new Error(`no invoice for ${orderId}: ${link.statusCode} ${link.body}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it.skipIf(!hasPdfToText)('shows the tax line with its rate, and the reverse charge note', async () => {
    const france = await openCheckout(maison);
    await confirm(france.client_secret, { customer_billing_address: PARIS });
    const taxed = await invoiceText((await orderOfCheckout(france.id)).order.id);
    expect(taxed).toMatch(/VAT \(20%\)\s+\$2\.00/);

    const business = await openCheckout(maison);
    await update(business.client_secret, {
      is_business_customer: true,
      customer_billing_name: 'Beispiel GmbH',
      customer_billing_address: BERLIN,
      customer_tax_id: 'DE123456789',
    });
    await confirm(business.client_secret, { customer_billing_address: BERLIN, customer_billing_name: 'Beispiel GmbH' });
    const reversed = (await invoiceText((await orderOfCheckout(business.id)).order.id)).replace(/\s+/g, ' ');
    expect(reversed).toContain('MwSt (reverse charge)');
    expect(reversed).toContain('Reverse charge: VAT to be accounted for by the recipient');
  });
});

describe('report', () => {
  it('sums taxable sales, tax collected and refunded per jurisdiction, as JSON and CSV', async () => {
    // A window around the server's (and the organization's test) clock.
    const day = (offset: number) =>
      new Date(server.clock.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    const period = `start_date=${day(-100)}&end_date=${day(100)}`;
    const response = await server.inject({
      method: 'GET',
      url: `/v1/tax-reports/?${period}`,
      headers: auth(maison.token),
    });
    expect(response.statusCode, response.body).toBe(200);
    const rows = json(response).rows as Record<string, unknown>[];
    const france = rows.find((row) => row.country === 'FR' && row.rate_basis_points === 2000);
    expect(france).toMatchObject({ label: 'VAT', currency: 'usd', reverse_charge: false });
    expect(france!.tax_amount).toBe((france!.taxable_amount as number) / 5);
    expect(france!.refunded_tax_amount).toBe(100);
    expect(rows.find((row) => row.state === 'US-CA')).toMatchObject({ taxable_amount: 2000, tax_amount: 145 });
    expect(rows.find((row) => row.country === 'DE')).toMatchObject({ reverse_charge: true, tax_amount: 0 });
    expect(rows.find((row) => row.country === 'JP')).toMatchObject({ tax_amount: 0, taxable_amount: 1000 });
    expect(rows.find((row) => row.country === 'FR' && row.rate_basis_points === 2100)).toMatchObject({
      order_count: 1,
      tax_amount: 210,
    });

    const csv = await server.inject({
      method: 'GET',
      url: `/v1/tax-reports/csv?${period}`,
      headers: auth(maison.token),
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toContain('attachment');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'start_date,end_date,country,state,label,rate_basis_points,reverse_charge,currency,order_count,' +
        'taxable_amount,tax_amount,refunded_amount,refunded_tax_amount',
    );
    expect(lines).toHaveLength(rows.length + 1);
    expect(lines.some((line) => line.includes(',US,US-CA,Sales tax,725,false,usd,1,2000,145,0,0'))).toBe(true);
  });

  it('refuses a period that ends before it starts', async () => {
    const response = await server.inject({
      method: 'GET',
      url: '/v1/tax-reports/?start_date=2026-02-01&end_date=2026-01-01',
      headers: auth(maison.token),
    });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail[0].loc).toEqual(['query', 'end_date']);
  });
});

describe('bad input', () => {
  const create = (payload: object, token = maison.token) =>
    server.inject({ method: 'POST', url: '/v1/tax-registrations/', headers: auth(token), payload });

  it.each([
    ['a rate below 0', { country: 'IT', rate_basis_points: -1, label: 'IVA' }, ['body', 'rate_basis_points']],
    ['a rate above 100 %', { country: 'IT', rate_basis_points: 10_001, label: 'IVA' }, ['body', 'rate_basis_points']],
    ['an unknown country', { country: 'XX', rate_basis_points: 2000, label: 'VAT' }, ['body', 'country']],
    [
      'an unknown US state',
      { country: 'US', state: 'ZZ', rate_basis_points: 600, label: 'Sales tax' },
      ['body', 'state'],
    ],
    [
      'a state outside US and CA',
      { country: 'IT', state: 'RM', rate_basis_points: 2200, label: 'IVA' },
      ['body', 'state'],
    ],
    [
      'a second registration for one place',
      { country: 'FR', rate_basis_points: 550, label: 'VAT' },
      ['body', 'country'],
    ],
    [
      'a second one for a state',
      { country: 'US', state: 'US-CA', rate_basis_points: 800, label: 'Tax' },
      ['body', 'state'],
    ],
    ['an empty label', { country: 'IT', rate_basis_points: 2200, label: ' ' }, ['body', 'label']],
  ])('%s: 422 at its field, nothing created', async (_name, payload, loc) => {
    const before = await server.runtime.database.db
      .selectFrom('tax_registrations')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const response = await create(payload);
    expect(response.statusCode, response.body).toBe(422);
    expect(json(response).detail.map((issue: { loc: string[] }) => issue.loc)).toContainEqual(loc);
    const after = await server.runtime.database.db
      .selectFrom('tax_registrations')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('Stripe Tax cannot be turned on without Stripe', async () => {
    const response = await server.inject({
      method: 'PATCH',
      url: '/v1/tax-settings/',
      headers: auth(maison.token),
      payload: { stripe_tax_enabled: true },
    });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail[0].loc).toEqual(['body', 'stripe_tax_enabled']);
  });
});

describe('auth matrix', () => {
  it.each([
    ['GET', '/v1/tax-settings/'],
    ['PATCH', '/v1/tax-settings/'],
    ['GET', '/v1/tax-registrations/'],
    ['POST', '/v1/tax-registrations/'],
    ['GET', '/v1/tax-registrations/{id}'],
    ['PATCH', '/v1/tax-registrations/{id}'],
    ['DELETE', '/v1/tax-registrations/{id}'],
    ['GET', '/v1/tax-reports/?start_date=2026-01-01&end_date=2026-01-31'],
    ['GET', '/v1/tax-reports/csv?start_date=2026-01-01&end_date=2026-01-31'],
  ] as const)('%s %s: 401 without a token, 403 without the scope', async (method, path) => {
    const url = path.replace('{id}', franceRegistrationId);
    const anonymous = await server.inject({ method, url, payload: method === 'GET' ? undefined : {} });
    expect(anonymous.statusCode).toBe(401);
    const scopes = path.startsWith('/v1/tax-reports') ? ['organizations:read'] : ['orders:read'];
    const token = await tokenFactory(server, maison.organization.id, scopes);
    const forbidden = await server.inject({
      method,
      url,
      headers: auth(token),
      payload: method === 'GET' ? undefined : {},
    });
    expect(forbidden.statusCode).toBe(403);
  });

  it.each(['GET', 'PATCH', 'DELETE'] as const)(
    "%s of another organization's registration: 404, nothing changed",
    async (method) => {
      const response = await server.inject({
        method,
        url: `/v1/tax-registrations/${franceRegistrationId}`,
        headers: auth(other.token),
        payload: method === 'PATCH' ? { rate_basis_points: 0 } : undefined,
      });
      expect(response.statusCode).toBe(404);
      const row = await server.runtime.database.db
        .selectFrom('tax_registrations')
        .select('rate_basis_points')
        .where('id', '=', franceRegistrationId)
        .executeTakeFirstOrThrow();
      expect(row.rate_basis_points).toBe(2000);
    },
  );

  it("another organization's list, settings and report do not show this one's", async () => {
    const list = await server.inject({ method: 'GET', url: '/v1/tax-registrations/', headers: auth(other.token) });
    expect(json(list).items).toEqual([]);
    const settings = await server.inject({ method: 'GET', url: '/v1/tax-settings/', headers: auth(other.token) });
    expect(json(settings)).toMatchObject({ organization_id: other.organization.id, home_country: null });
    const report = await server.inject({
      method: 'GET',
      url: '/v1/tax-reports/?start_date=2000-01-01&end_date=2100-01-01',
      headers: auth(other.token),
    });
    expect(report.statusCode, report.body).toBe(422); // more than 366 days
  });

  it('a bad body is a 422 that changes nothing', async () => {
    const response = await server.inject({
      method: 'PATCH',
      url: `/v1/tax-registrations/${franceRegistrationId}`,
      headers: auth(maison.token),
      payload: { rate_basis_points: 'twenty' },
    });
    expect(response.statusCode).toBe(422);
    const settings = await server.inject({
      method: 'PATCH',
      url: '/v1/tax-settings/',
      headers: auth(maison.token),
      payload: { prices_include_tax: 'yes' },
    });
    expect(settings.statusCode).toBe(422);
    const after = await server.inject({ method: 'GET', url: '/v1/tax-settings/', headers: auth(maison.token) });
    expect(json(after)).toMatchObject({ prices_include_tax: false, home_country: 'FR' });
  });

  it('registrations CRUD: create, list, delete', async () => {
    const created = await server.inject({
      method: 'POST',
      url: '/v1/tax-registrations/',
      headers: auth(other.token),
      payload: { country: 'ca', state: 'on', rate_basis_points: 1300, label: 'HST' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(json(created)).toMatchObject({ country: 'CA', state: 'CA-ON', rate_basis_points: 1300, label: 'HST' });
    const list = await server.inject({ method: 'GET', url: '/v1/tax-registrations/', headers: auth(other.token) });
    expect(json(list).items).toHaveLength(1);
    const deleted = await server.inject({
      method: 'DELETE',
      url: `/v1/tax-registrations/${json(created).id}`,
      headers: auth(other.token),
    });
    expect(deleted.statusCode).toBe(204);
  });
});
