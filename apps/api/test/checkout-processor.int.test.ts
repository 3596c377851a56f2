import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { checkoutFactory } from './factories/checkouts.js';
import { organizationFactory } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { startTestServer, type TestServer } from './harness.js';

/** The checkout page learns from the checkout which card form to load (no processor call is made here). */
let stripe: TestServer;
let simulated: TestServer;

beforeAll(async () => {
  [stripe, simulated] = await Promise.all([
    startTestServer({ config: { stripeSecretKey: 'sk_test_123', stripePublishableKey: 'pk_test_456' } }),
    startTestServer(),
  ]);
});
afterAll(() => Promise.all([stripe?.stop(), simulated?.stop()]));

async function publicCheckout(server: TestServer) {
  const { organization } = await organizationFactory(server);
  const { product } = await productFactory(server, organization.id);
  const checkout = await checkoutFactory(server, organization.id, [product.id]);
  const response = await server.inject({ method: 'GET', url: `/v1/checkouts/client/${checkout.client_secret}` });
  expect(response.statusCode).toBe(200);
  return { seller: checkout, buyer: JSON.parse(response.body) as { payment_processor_metadata: object } };
}

it('with Stripe, the checkout carries the publishable key for the Payment Element', async () => {
  const { seller, buyer } = await publicCheckout(stripe);
  expect(buyer.payment_processor_metadata).toEqual({ publishable_key: 'pk_test_456' });
  expect(seller.payment_processor_metadata).toEqual({ publishable_key: 'pk_test_456' });
});

it('with the simulated processor, it carries nothing (the page shows its own card form)', async () => {
  expect((await publicCheckout(simulated)).buyer.payment_processor_metadata).toEqual({});
});

it('refuses to start with a Stripe secret key but no publishable key', () => {
  expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_123', SECRET: 'x'.repeat(32) })).toThrow(
    'STRIPE_PUBLISHABLE_KEY is required with STRIPE_SECRET_KEY',
  );
});
