import { AsyncLocalStorage } from 'node:async_hooks';
import { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { reverseStripeTaxRefunds } from '../src/modules/tax-settings/tax-settings.stripe-reversals.js';
import { runIn } from '../src/platform/jobs/queue.js';
import type { TaxInput, TaxResult } from '../src/platform/tax.js';
import { checkoutFactory, confirmationToken } from './factories/checkouts.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { json, startTestServer, type TestServer } from './harness.js';

/**
 * Stripe Tax at checkout for an organization that opted in (docs/tax.md), with Stripe Tax replaced by
 * a recording fake (the adapter's HTTP is tested in `platform/stripe-tax.test.ts`): the update commits,
 * Stripe is asked with no transaction open, the answer is recorded; confirm charges it and the paid
 * order's tax transaction is recorded after commit. Renewals, plan changes and payments settled by
 * Stripe's webhook are in `tax.stripe-billing.int.test.ts`.
 */
const calls: { input: TaxInput; inTransaction: boolean }[] = [];
const transactions: { calculationId: string; orderId: string }[] = [];
const reversals: { transactionId: string; reference: string; amountWithTax: number; full: boolean }[] = [];
/** Set inside every database transaction (as `support/processor-guard.ts` does for the processor). */
const inTransaction = new AsyncLocalStorage<true>();
const originalTransaction = Kysely.prototype.transaction;

vi.mock('../src/platform/stripe-tax.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/platform/stripe-tax.js')>();
  const fake = {
    name: 'stripe_tax',
    calculate(input: TaxInput): Promise<TaxResult> {
      calls.push({ input, inTransaction: Boolean(inTransaction.getStore()) });
      if (input.postalCode === '00000') return Promise.resolve({ status: 'failed', message: 'Unknown location.' });
      const tax = input.country === 'DE' ? Math.round(input.amount * 0.19) : 0;
      return Promise.resolve({
        status: 'calculated',
        amount: tax,
        details: {
          provider: 'stripe_tax',
          country: input.country!,
          state: input.state,
          rate_basis_points: tax > 0 ? 1900 : 0,
          label: 'VAT',
          taxable_amount: input.amount,
          tax_amount: tax,
          inclusive: false,
          reverse_charge: false,
          note: null,
          calculation_id: `taxcalc_${calls.length}`,
          transaction_id: null,
        },
      });
    },
    reverse(reversal: (typeof reversals)[number]) {
      if (inTransaction.getStore()) throw new Error('Stripe Tax reversal inside a transaction');
      reversals.push(reversal);
      return Promise.resolve({ transactionId: `tax_txn_reversal_${reversals.length}` });
    },
    recordTransaction(calculationId: string, orderId: string) {
      if (inTransaction.getStore()) throw new Error('Stripe Tax transaction inside a transaction');
      transactions.push({ calculationId, orderId });
      return Promise.resolve({ transactionId: `tax_txn_${transactions.length}` });
    },
  };
  return {
    ...original,
    stripeTaxAvailable: () => true,
    stripeTaxCalculatorFor: () => fake as unknown as InstanceType<typeof original.StripeTaxCalculator>,
  };
});

let server: TestServer;
let maison: OrganizationFixture;

beforeAll(async () => {
  Kysely.prototype.transaction = function (this: Kysely<never>) {
    const builder = originalTransaction.call(this);
    const execute = builder.execute.bind(builder);
    return Object.assign(builder, {
      execute: <T>(callback: (trx: never) => Promise<T>) =>
        execute((trx) => inTransaction.run(true, () => callback(trx as never))),
    });
  } as typeof Kysely.prototype.transaction;
  server = await startTestServer();
  maison = await organizationFactory(server, { name: 'Maison' });
  const settings = await server.inject({
    method: 'PATCH',
    url: '/v1/tax-settings/',
    headers: { authorization: `Bearer ${maison.token}` },
    payload: { home_country: 'FR', stripe_tax_enabled: true },
  });
  expect(settings.statusCode, settings.body).toBe(200);
});
afterAll(async () => {
  await server?.stop();
  Kysely.prototype.transaction = originalTransaction;
});

const BERLIN = { country: 'DE', line1: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117' };

describe('Stripe Tax at checkout', () => {
  it('the update is answered with Stripe’s tax, asked with no transaction open; confirm charges it and records the transaction', async () => {
    const { product } = await productFactory(server, maison.organization.id);
    const checkout = await checkoutFactory(server, maison.organization.id, [product.id]);
    const before = calls.length;
    const updated = await server.inject({
      method: 'PATCH',
      url: `/v1/checkouts/client/${checkout.client_secret}`,
      payload: { customer_billing_address: BERLIN },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(json(updated)).toMatchObject({ tax_amount: 190, total_amount: 1190 });
    expect(calls.slice(before).map((call) => call.inTransaction)).toEqual([false]);
    expect(calls.at(-1)!.input).toMatchObject({ amount: 1000, country: 'DE', postalCode: '10117' });

    // The same question again: Stripe's answer is kept, not asked twice.
    const again = await server.inject({
      method: 'PATCH',
      url: `/v1/checkouts/client/${checkout.client_secret}`,
      payload: { customer_billing_address: BERLIN },
    });
    expect(json(again)).toMatchObject({ tax_amount: 190 });
    expect(calls.length).toBe(before + 1);

    const confirmed = await server.inject({
      method: 'POST',
      url: `/v1/checkouts/client/${checkout.client_secret}/confirm`,
      payload: {
        customer_email: 'kunde@example.com',
        customer_name: 'Kunde',
        customer_billing_address: BERLIN,
        confirmation_token_id: await confirmationToken(server),
      },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(calls.every((call) => !call.inTransaction)).toBe(true);
    const order = await server.runtime.database.db
      .selectFrom('orders')
      .selectAll()
      .where('checkout_id', '=', checkout.id)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ tax_amount: 190, total_amount: 1190 });
    // The tax transaction is recorded after the payment's commit (the `tax.stripe-transaction` job).
    await expect
      .poll(
        async () =>
          (
            (
              await server.runtime.database.db
                .selectFrom('orders')
                .select('tax_details')
                .where('id', '=', order.id)
                .executeTakeFirstOrThrow()
            ).tax_details as { transaction_id: string | null }
          ).transaction_id,
        { timeout: 15_000, interval: 50 },
      )
      .toBe('tax_txn_1');
    const paid = await server.runtime.database.db
      .selectFrom('orders')
      .select('tax_details')
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(paid.tax_details).toMatchObject({
      provider: 'stripe_tax',
      calculation_id: 'taxcalc_1',
      transaction_id: 'tax_txn_1',
    });
    expect(transactions).toEqual([{ calculationId: 'taxcalc_1', orderId: order.id }]);

    // A partial refund (€5.00 and its €0.95 tax) is reversed in Stripe's tax records by the sweep, once.
    const refund = await server.inject({
      method: 'POST',
      url: '/v1/refunds/',
      headers: { authorization: `Bearer ${maison.token}` },
      payload: { order_id: order.id, reason: 'customer_request', amount: 500 },
    });
    expect(refund.statusCode, refund.body).toBeLessThan(300);
    expect(json(refund)).toMatchObject({ status: 'succeeded', tax_amount: 95 });
    expect(await reverseStripeTaxRefunds(server.context(), runIn(server.context()))).toBe(1);
    expect(reversals).toEqual([
      { transactionId: 'tax_txn_1', reference: json(refund).id, amountWithTax: 595, full: false },
    ]);
    expect(await reverseStripeTaxRefunds(server.context(), runIn(server.context()))).toBe(0);
    const after = await server.runtime.database.db
      .selectFrom('orders')
      .select('tax_details')
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(after.tax_details).toMatchObject({
      transaction_id: 'tax_txn_1',
      reversals: { [json(refund).id]: 'tax_txn_reversal_1' },
    });
  });

  it('the seller’s update with a billing address is answered with Stripe’s tax too, asked after its commit', async () => {
    const { product } = await productFactory(server, maison.organization.id);
    const checkout = await checkoutFactory(server, maison.organization.id, [product.id]);
    const before = calls.length;
    const updated = await server.inject({
      method: 'PATCH',
      url: `/v1/checkouts/${checkout.id}`,
      headers: { authorization: `Bearer ${maison.token}` },
      payload: { customer_billing_address: BERLIN },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(json(updated)).toMatchObject({ tax_amount: 190, total_amount: 1190 });
    expect(calls.slice(before).map((call) => call.inTransaction)).toEqual([false]);
    const created = await server.inject({
      method: 'POST',
      url: '/v1/checkouts/',
      headers: { authorization: `Bearer ${maison.token}` },
      payload: { products: [product.id], customer_billing_address: BERLIN },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(json(created)).toMatchObject({ tax_amount: 190, total_amount: 1190 });
    expect(calls.slice(before).map((call) => call.inTransaction)).toEqual([false, false]);
  });

  it('a Stripe refusal leaves the tax unknown and confirm refuses at the billing address, charging nothing', async () => {
    const { product } = await productFactory(server, maison.organization.id);
    const checkout = await checkoutFactory(server, maison.organization.id, [product.id]);
    const nowhere = { ...BERLIN, postal_code: '00000' };
    const updated = await server.inject({
      method: 'PATCH',
      url: `/v1/checkouts/client/${checkout.client_secret}`,
      payload: { customer_billing_address: nowhere },
    });
    expect(json(updated)).toMatchObject({ tax_amount: null, total_amount: 1000 });
    const confirmed = await server.inject({
      method: 'POST',
      url: `/v1/checkouts/client/${checkout.client_secret}/confirm`,
      payload: {
        customer_email: 'kunde@example.com',
        customer_name: 'Kunde',
        customer_billing_address: nowhere,
        confirmation_token_id: await confirmationToken(server),
      },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(422);
    expect(json(confirmed).detail).toContainEqual(
      expect.objectContaining({ loc: ['body', 'customer_billing_address'] }),
    );
    const orders = await server.runtime.database.db
      .selectFrom('orders')
      .select('id')
      .where('checkout_id', '=', checkout.id)
      .execute();
    expect(orders).toEqual([]);
  });
});
