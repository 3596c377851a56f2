import { Polar } from '@polar-sh/sdk';
import { InvoiceAlreadyExists } from '@polar-sh/sdk/models/errors/invoicealreadyexists.js';
import { MissingInvoiceBillingDetails } from '@polar-sh/sdk/models/errors/missinginvoicebillingdetails.js';
import { NotPaidOrder } from '@polar-sh/sdk/models/errors/notpaidorder.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../../src/platform/clock.js';
import { customerFactory } from '../factories/customers.js';
import { discountFactory } from '../factories/discounts.js';
import { orderFactory } from '../factories/orders.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { productFactory } from '../factories/products.js';
import { subscriptionFactory } from '../factories/subscriptions.js';
import { startTestServer, type TestServer } from '../harness.js';

let server: TestServer;
let acme: OrganizationFixture;
let polar: Polar;
const orderIds: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  acme = await organizationFactory(server, { name: 'Acme' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
  const customer = await customerFactory(server, acme.organization.id, { name: 'Jane' });
  const oneTime = await productFactory(server, acme.organization.id);
  const monthly = await productFactory(server, acme.organization.id, { recurring_interval: 'month' });
  const discount = await discountFactory(server, acme.organization.id, {
    type: 'fixed',
    duration: 'repeating',
    duration_in_months: 3,
    amount: 100,
  });
  for (let i = 0; i < 5; i++) {
    (server.clock as ManualClock).advance(1000);
    const order = await orderFactory(server, acme.organization.id, {
      customer,
      product: i % 2 ? monthly : oneTime,
      discount_id: i === 1 ? discount.id : null,
      discount_amount: i === 1 ? 100 : 0,
      tax_amount: 25,
      status: i === 4 ? 'pending' : 'paid',
      metadata: { index: i },
      custom_field_data: { company: 'Jane Co', seats: 3, agreed: true, since: null },
    });
    orderIds.push(order.id);
  }
});
afterAll(() => server?.stop());

describe('orders through @polar-sh/sdk', () => {
  it('iterates the list page by page (limit 2 → pages of 2, 2, 1)', async () => {
    const seen: string[] = [];
    let pages = 0;
    for await (const page of await polar.orders.list({ limit: 2, sorting: ['created_at'] })) {
      pages++;
      seen.push(...page.result.items.map((order) => order.id));
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(orderIds);
  });

  it('filters as the SDK encodes them (lists, billing type, metadata)', async () => {
    const recurring = await polar.orders.list({
      productBillingType: 'recurring',
      organizationId: [acme.organization.id],
    });
    expect(recurring.result.items.map((order) => order.id)).toEqual([orderIds[3], orderIds[1]]);
    const tagged = await polar.orders.list({ metadata: { index: ['0', '2'] }, sorting: ['-amount', 'created_at'] });
    expect(tagged.result.items.map((order) => order.id)).toEqual([orderIds[0], orderIds[2]]);
  });

  it('gets an order with every embedded object', async () => {
    const order = await polar.orders.get({ id: orderIds[1]! });
    expect(order).toMatchObject({
      id: orderIds[1],
      status: 'paid',
      paid: true,
      subtotalAmount: 1000,
      discountAmount: 100,
      netAmount: 900,
      amount: 900,
      taxAmount: 25,
      totalAmount: 925,
      billingReason: 'subscription_create',
      billingName: 'Jane',
      billingAddress: null,
      isInvoiceGenerated: false,
      subscription: null,
      subscriptionId: null,
      checkoutId: null,
      customFieldData: { company: 'Jane Co', seats: 3, agreed: true, since: null },
    });
    expect(order.userId).toBe(order.customerId);
    expect(order.customer.name).toBe('Jane');
    expect(order.product.isRecurring).toBe(true);
    expect(order.discount).toMatchObject({ type: 'fixed', duration: 'repeating', durationInMonths: 3, amount: 100 });
    expect(order.items).toHaveLength(1);
    expect(order.createdAt).toBeInstanceOf(Date);
    await expect(polar.orders.get({ id: '00000000-0000-4000-8000-000000000000' })).rejects.toBeInstanceOf(
      ResourceNotFound,
    );
  });

  it('updates the billing details (both keys, as the SDK always sends them)', async () => {
    const updated = await polar.orders.update({
      id: orderIds[0]!,
      orderUpdate: {
        billingName: 'Jane Co Ltd',
        billingAddress: { line1: '1 Main St', city: 'Austin', postalCode: '73301', state: 'TX', country: 'US' },
      },
    });
    expect(updated.billingName).toBe('Jane Co Ltd');
    expect(updated.billingAddress).toMatchObject({ state: 'US-TX', country: 'US', postalCode: '73301', line2: null });
    const error = await polar.orders
      .update({ id: orderIds[0]!, orderUpdate: { billingName: 'x', billingAddress: { country: 'XX' } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HTTPValidationError);
  });

  it('generates invoices: accepted, then the typed errors of the reference', async () => {
    await expect(polar.orders.generateInvoice({ id: orderIds[0]! })).resolves.toEqual({});
    await expect(polar.orders.generateInvoice({ id: orderIds[2]! })).rejects.toBeInstanceOf(
      MissingInvoiceBillingDetails,
    );
    await polar.orders.update({
      id: orderIds[4]!,
      orderUpdate: { billingName: 'P', billingAddress: { country: 'FR' } },
    });
    await expect(polar.orders.generateInvoice({ id: orderIds[4]! })).rejects.toBeInstanceOf(NotPaidOrder);
    const deadline = Date.now() + 20_000;
    while (!(await polar.orders.get({ id: orderIds[0]! })).isInvoiceGenerated) {
      if (Date.now() > deadline) throw new Error('the invoice was not rendered');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await expect(polar.orders.generateInvoice({ id: orderIds[0]! })).rejects.toBeInstanceOf(InvoiceAlreadyExists);
  });

  it('reads the invoice url once it exists; before that the 404 of the reference', async () => {
    const invoice = await polar.orders.invoice({ id: orderIds[0]! });
    const url = new URL(invoice.url);
    expect(url.pathname).toBe(`/v1/storage/download/invoices/${acme.organization.id}/${orderIds[0]}.pdf`);
    const file = await fetch(new URL(url.pathname + url.search, server.url));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    // The reference answers `InvoiceDoesNotExist`, which this SDK version does not declare.
    const error = (await polar.orders.invoice({ id: orderIds[1]! }).catch((e: unknown) => e)) as {
      statusCode?: number;
      rawValue?: unknown;
      body?: string;
    };
    expect(error.statusCode ?? (error as { rawResponse?: Response }).rawResponse?.status).toBe(404);
  });
  it('gets a subscription order with its subscription embedded, as the list shows it', async () => {
    const subscription = await subscriptionFactory(server, acme.organization.id);
    const listed = await polar.orders.list({ customerId: subscription.customer_id });
    const fromList = listed.result.items.find((order) => order.subscriptionId === subscription.id);
    expect(fromList?.subscription?.id).toBe(subscription.id);
    const order = await polar.orders.get({ id: fromList!.id });
    expect(order.subscriptionId).toBe(subscription.id);
    expect(order.subscription).toMatchObject({ id: subscription.id, status: 'active', recurringInterval: 'month' });
    expect(order.subscription).toEqual(fromList!.subscription);
  });
});
