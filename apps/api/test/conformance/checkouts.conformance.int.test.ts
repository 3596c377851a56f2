import { Polar } from '@polar-sh/sdk';
import { ExpiredCheckoutError } from '@polar-sh/sdk/models/errors/expiredcheckouterror.js';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { PaymentError } from '@polar-sh/sdk/models/errors/paymenterror.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../../src/platform/clock.js';
import { ADDRESS, CARDS, confirmationToken } from '../factories/checkouts.js';
import { discountFactory } from '../factories/discounts.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { customPrice, freePrice, productFactory, type ProductFactoryInput } from '../factories/products.js';
import { startTestServer, type TestServer } from '../harness.js';

let server: TestServer;
let acme: OrganizationFixture;
let polar: Polar;
/** The buyer's client: no credentials. */
let buyer: Polar;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  acme = await organizationFactory(server, { name: 'Acme' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
  buyer = new Polar({ serverURL: server.url });
});
afterAll(() => server?.stop());

const customer = (email: string) => ({
  customerEmail: email,
  customerName: 'Ada Buyer',
  customerBillingAddress: ADDRESS,
});

/** Seller creates → buyer reads, updates, confirms → the seller sees the order and the payment. */
async function purchase(
  product: ProductFactoryInput,
  options: { email: string; amount?: number; discountCode?: string; card?: string | null } = { email: 'x@example.com' },
) {
  const { product: created } = await productFactory(server, acme.organization.id, product);
  const checkout = await polar.checkouts.create({ products: [created.id] });
  const publicView = await buyer.checkouts.clientGet({ clientSecret: checkout.clientSecret });
  expect(publicView.id).toBe(checkout.id);
  const updated = await buyer.checkouts.clientUpdate({
    clientSecret: checkout.clientSecret,
    checkoutUpdatePublic: {
      ...customer(options.email),
      ...(options.amount !== undefined ? { amount: options.amount } : {}),
      ...(options.discountCode ? { discountCode: options.discountCode } : {}),
    },
  });
  const card = options.card === undefined ? CARDS.visa : options.card;
  const confirmed = await polar.checkouts.clientConfirm({
    clientSecret: checkout.clientSecret,
    checkoutConfirmStripe: card ? { confirmationTokenId: await confirmationToken(server, card) } : {},
  });
  expect(confirmed.status).toBe('confirmed');
  expect(confirmed.customerSessionToken).toMatch(/^polar_cst_/);
  const orders = await polar.orders.list({ checkoutId: checkout.id });
  const payments = await polar.payments.list({ checkoutId: checkout.id });
  return {
    checkout,
    updated,
    confirmed,
    orders: orders.result.items,
    payments: payments.result.items,
    after: await polar.checkouts.get({ id: checkout.id }),
  };
}

describe('checkouts through @polar-sh/sdk', () => {
  it('one-time product: paid order (purchase) and a succeeded card payment', async () => {
    const flow = await purchase({}, { email: 'one@example.com' });
    expect(flow.updated).toMatchObject({ amount: 1000, totalAmount: 1000, isPaymentFormRequired: true });
    expect(flow.after.status).toBe('succeeded');
    expect(flow.orders).toHaveLength(1);
    expect(flow.orders[0]).toMatchObject({ status: 'paid', billingReason: 'purchase', totalAmount: 1000 });
    expect(flow.payments).toHaveLength(1);
    expect(flow.payments[0]).toMatchObject({ status: 'succeeded', method: 'card', amount: 1000 });
  });

  it('recurring product: subscription_create order', async () => {
    const flow = await purchase({ recurring_interval: 'month' }, { email: 'monthly@example.com' });
    expect(flow.updated.isPaymentSetupRequired).toBe(true);
    expect(flow.orders[0]).toMatchObject({ billingReason: 'subscription_create', status: 'paid' });
    expect(flow.orders[0]!.subscriptionId).toBeTruthy();
    // Orders read back through the API embed their subscription.
    expect(flow.orders[0]!.subscription).toMatchObject({ id: flow.orders[0]!.subscriptionId, status: 'active' });
    expect(flow.payments[0]!.status).toBe('succeeded');
  });

  it('free product: no payment form, an order of 0 and no payment', async () => {
    const flow = await purchase({ prices: [freePrice()] }, { email: 'free@example.com', card: null });
    expect(flow.updated).toMatchObject({ isFreeProductPrice: true, isPaymentFormRequired: false, totalAmount: 0 });
    expect(flow.orders[0]).toMatchObject({ totalAmount: 0, status: 'paid' });
    expect(flow.payments).toHaveLength(0);
  });

  it('pay what you want: the chosen amount is charged', async () => {
    const flow = await purchase(
      { prices: [customPrice({ minimum_amount: 500, preset_amount: 1500 })] },
      { email: 'pwyw@example.com', amount: 2500 },
    );
    expect(flow.checkout.amount).toBe(1500);
    expect(flow.orders[0]!.totalAmount).toBe(2500);
    expect(flow.payments[0]!.amount).toBe(2500);
  });

  it('100 % discount: no payment form, a discounted order', async () => {
    await discountFactory(server, acme.organization.id, { code: 'FREEBIE', basis_points: 10_000 });
    const flow = await purchase({}, { email: 'freebie@example.com', discountCode: 'freebie', card: null });
    expect(flow.updated).toMatchObject({ discountAmount: 1000, totalAmount: 0, isPaymentFormRequired: false });
    expect(flow.orders[0]).toMatchObject({ subtotalAmount: 1000, discountAmount: 1000, totalAmount: 0 });
    expect(flow.payments).toHaveLength(0);
  });

  it('maps errors to the SDK classes: 404, 410, 422, 400 PaymentError', async () => {
    await expect(buyer.checkouts.clientGet({ clientSecret: 'polar_c_nope' })).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(polar.checkouts.get({ id: '00000000-0000-4000-8000-000000000000' })).rejects.toBeInstanceOf(
      ResourceNotFound,
    );
    const { product } = await productFactory(server, acme.organization.id);
    const checkout = await polar.checkouts.create({ products: [product.id] });
    await expect(
      polar.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: {} }),
    ).rejects.toBeInstanceOf(HTTPValidationError);
    await expect(
      polar.checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: {
          ...customer('declined@example.com'),
          confirmationTokenId: await confirmationToken(server, CARDS.insufficientFunds),
        },
      }),
    ).rejects.toBeInstanceOf(PaymentError);
    const clock = server.clock as ManualClock;
    clock.advance(25 * 3600 * 1000);
    try {
      await expect(buyer.checkouts.clientGet({ clientSecret: checkout.clientSecret })).rejects.toBeInstanceOf(
        ExpiredCheckoutError,
      );
    } finally {
      clock.advance(-25 * 3600 * 1000);
    }
  });

  it('update and list with the page iterator', async () => {
    const { product } = await productFactory(server, acme.organization.id);
    const created = [];
    for (let i = 0; i < 3; i++) created.push(await polar.checkouts.create({ products: [product.id] }));
    const updated = await polar.checkouts.update({
      id: created[0]!.id,
      checkoutUpdate: { metadata: { order: 'first' }, customerEmail: 'seller-set@example.com' },
    });
    expect(updated).toMatchObject({ metadata: { order: 'first' }, customerEmail: 'seller-set@example.com' });
    const seen: string[] = [];
    for await (const page of await polar.checkouts.list({ productId: product.id, limit: 2 })) {
      seen.push(...page.result.items.map((item) => item.id));
    }
    expect(seen.sort()).toEqual(created.map((c) => c.id).sort());
  });
});
