import { Polar } from '@polar-sh/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS, CARDS, confirmationToken } from '../factories/checkouts.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { productFactory } from '../factories/products.js';
import { startTestServer, type TestServer } from '../harness.js';

/**
 * A free trial read through @polar-sh/sdk@0.33.2: its schemas validate every answer (the trial fields
 * are extra to them; `trialing` is in its SubscriptionStatus).
 */
let server: TestServer;
let acme: OrganizationFixture;
let polar: Polar;
let buyer: Polar;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  acme = await organizationFactory(server, { name: 'Acme' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
  buyer = new Polar({ serverURL: server.url });
});
afterAll(() => server?.stop());

describe('trials through @polar-sh/sdk', () => {
  it('a trial product, its checkout and the trialing subscription validate', async () => {
    const { product } = await productFactory(server, acme.organization.id, {
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 1200 }],
      trial_interval: 'day',
      trial_interval_count: 14,
    } as never);
    expect((await polar.products.get({ id: product.id })).id).toBe(product.id);
    const checkout = await polar.checkouts.create({ products: [product.id] });
    const view = await buyer.checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: {
        customerEmail: 'trial@example.com',
        customerName: 'Ada',
        customerBillingAddress: ADDRESS,
      },
    });
    expect(view).toMatchObject({ isPaymentRequired: false, isPaymentSetupRequired: true, totalAmount: 1200 });
    const confirmed = await buyer.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { confirmationTokenId: await confirmationToken(server, CARDS.visa) },
    });
    expect(confirmed.status).toBe('confirmed');
    const listed = await polar.subscriptions.list({ organizationId: acme.organization.id, active: true });
    const subscription = listed.result.items.find((s) => s.checkoutId === checkout.id)!;
    expect(subscription.status).toBe('trialing');
    const one = await polar.subscriptions.get({ id: subscription.id });
    expect(one).toMatchObject({ status: 'trialing', amount: 1200 });
    const canceled = await polar.subscriptions.update({
      id: subscription.id,
      subscriptionUpdate: { cancelAtPeriodEnd: true },
    });
    expect(canceled).toMatchObject({ status: 'trialing', cancelAtPeriodEnd: true });
  });
});
