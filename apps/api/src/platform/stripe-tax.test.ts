import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { REVERSE_CHARGE_NOTE } from '../modules/billing/billing.tax.js';
import { createStripeClient } from './payments/stripe.js';
import { StripeTaxCalculator } from './stripe-tax.js';

/**
 * The Stripe Tax adapter against a local fake of Stripe's HTTP API: a fake `fetch` asserts each request
 * (method, path, form-encoded parameters, Idempotency-Key) and answers Stripe's documented JSON bodies.
 * Nothing goes to the network.
 */
interface Recorded {
  method: string;
  path: string;
  params: URLSearchParams;
  idempotencyKey: string | null;
}

type Reply = { status: number; body: unknown };

function fakeStripe(replies: ((request: Recorded) => Reply)[], inclusive = false) {
  const requests: Recorded[] = [];
  const fetchFn = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const parsed = new URL(String(url));
    const headers = new Headers(init?.headers as ConstructorParameters<typeof Headers>[0]);
    const request: Recorded = {
      method: init?.method ?? 'GET',
      path: parsed.pathname,
      params: new URLSearchParams(typeof init?.body === 'string' ? init.body : ''),
      idempotencyKey: headers.get('idempotency-key'),
    };
    requests.push(request);
    const reply = replies.shift();
    if (!reply) throw new Error(`unexpected request ${request.method} ${request.path}`);
    const { status, body } = reply(request);
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', 'request-id': `req_${requests.length}` },
    });
  };
  const stripe = createStripeClient('sk_test_fake', {
    httpClient: Stripe.createFetchHttpClient(fetchFn as typeof fetch),
    maxNetworkRetries: 0,
  });
  return { calculator: new StripeTaxCalculator(stripe, { inclusive }), requests };
}

const calculation = (fields: Record<string, unknown>) => ({
  id: 'taxcalc_123',
  object: 'tax.calculation',
  amount_total: 1200,
  currency: 'eur',
  livemode: false,
  tax_amount_exclusive: 200,
  tax_amount_inclusive: 0,
  tax_breakdown: [
    {
      amount: 200,
      inclusive: false,
      taxable_amount: 1000,
      taxability_reason: 'standard_rated',
      tax_rate_details: {
        country: 'FR',
        state: null,
        percentage_decimal: '20.0',
        tax_type: 'vat',
        rate_type: 'percentage',
        flat_amount: null,
      },
    },
  ],
  ...fields,
});

const input = {
  amount: 1000,
  currency: 'eur',
  country: 'FR',
  state: null,
  postalCode: '75001',
  taxId: null,
  productId: 'prod-1',
};

describe('Stripe Tax adapter', () => {
  it('calculates on the billing address and answers the tax with its details', async () => {
    const { calculator, requests } = fakeStripe([() => ({ status: 200, body: calculation({}) })]);
    const result = await calculator.calculate(input);
    expect(result).toEqual({
      status: 'calculated',
      amount: 200,
      details: expect.objectContaining({
        provider: 'stripe_tax',
        country: 'FR',
        rate_basis_points: 2000,
        label: 'VAT',
        taxable_amount: 1000,
        tax_amount: 200,
        reverse_charge: false,
        calculation_id: 'taxcalc_123',
      }) as unknown,
    });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/v1/tax/calculations');
    expect(Object.fromEntries(request!.params)).toMatchObject({
      currency: 'eur',
      'line_items[0][amount]': '1000',
      'line_items[0][reference]': 'prod-1',
      'line_items[0][tax_behavior]': 'exclusive',
      'customer_details[address][country]': 'FR',
      'customer_details[address][postal_code]': '75001',
      'customer_details[address_source]': 'billing',
    });
  });

  it('sends a US state without its country prefix and a tax id; a reverse charge carries the note', async () => {
    const { calculator, requests } = fakeStripe([
      () => ({
        status: 200,
        body: calculation({
          tax_amount_exclusive: 0,
          tax_breakdown: [
            {
              amount: 0,
              inclusive: false,
              taxable_amount: 0,
              taxability_reason: 'reverse_charge',
              tax_rate_details: {
                country: 'DE',
                state: null,
                percentage_decimal: '0.0',
                tax_type: 'vat',
                rate_type: 'percentage',
                flat_amount: null,
              },
            },
          ],
        }),
      }),
    ]);
    const result = await calculator.calculate({ ...input, country: 'DE', taxId: ['DE123456789', 'eu_vat'] });
    expect(result).toMatchObject({
      status: 'calculated',
      amount: 0,
      details: { reverse_charge: true, note: REVERSE_CHARGE_NOTE, rate_basis_points: 0 },
    });
    expect(Object.fromEntries(requests[0]!.params)).toMatchObject({
      'customer_details[tax_ids][0][type]': 'eu_vat',
      'customer_details[tax_ids][0][value]': 'DE123456789',
    });

    const us = fakeStripe([() => ({ status: 200, body: calculation({ tax_amount_exclusive: 73 }) })]);
    await us.calculator.calculate({ ...input, country: 'US', state: 'US-CA', postalCode: '94105' });
    expect(us.requests[0]!.params.get('customer_details[address][state]')).toBe('CA');
  });

  it('with prices that include tax, asks for inclusive behaviour and splits the amount', async () => {
    const { calculator, requests } = fakeStripe(
      [() => ({ status: 200, body: calculation({ tax_amount_exclusive: 0, tax_amount_inclusive: 167 }) })],
      true,
    );
    const result = await calculator.calculate(input);
    expect(result).toMatchObject({ amount: 167, details: { inclusive: true, taxable_amount: 833, tax_amount: 167 } });
    expect(requests[0]!.params.get('line_items[0][tax_behavior]')).toBe('inclusive');
  });

  it('is unknown without a country and 0 for an exempt product, without calling Stripe', async () => {
    const { calculator, requests } = fakeStripe([]);
    expect(await calculator.calculate({ ...input, country: null })).toEqual({ status: 'unknown' });
    expect(await calculator.calculate({ ...input, taxable: false })).toMatchObject({ status: 'calculated', amount: 0 });
    expect(requests).toEqual([]);
  });

  it("answers Stripe's refusal as a failure with its message (confirm shows it at the billing address)", async () => {
    const { calculator } = fakeStripe([
      () => ({
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'customer_tax_location_invalid',
            message: "We could not determine the customer's tax location.",
          },
        },
      }),
    ]);
    expect(await calculator.calculate(input)).toEqual({
      status: 'failed',
      message: "We could not determine the customer's tax location.",
    });
  });

  it('answers an outage (a 500, no answer to the question) as a failure marked unavailable', async () => {
    const { calculator } = fakeStripe([
      () => ({ status: 500, body: { error: { type: 'api_error', message: 'Something went wrong on our end.' } } }),
    ]);
    expect(await calculator.calculate(input)).toEqual({
      status: 'failed',
      message: 'Something went wrong on our end.',
      unavailable: true,
    });
  });

  it('records a transaction for a paid order, idempotently by the order', async () => {
    const { calculator, requests } = fakeStripe([
      () => ({ status: 200, body: { id: 'tax_txn_1', object: 'tax.transaction', reference: 'order-1' } }),
    ]);
    expect(await calculator.recordTransaction('taxcalc_123', 'order-1')).toEqual({ transactionId: 'tax_txn_1' });
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/tax/transactions/create_from_calculation',
      idempotencyKey: 'tax-transaction-order-1',
    });
    expect(Object.fromEntries(requests[0]!.params)).toEqual({ calculation: 'taxcalc_123', reference: 'order-1' });
  });

  it('reverses a transaction on refund: partially by the refund with its tax, or in full', async () => {
    const { calculator, requests } = fakeStripe([
      () => ({ status: 200, body: { id: 'tax_txn_2', object: 'tax.transaction' } }),
      () => ({ status: 200, body: { id: 'tax_txn_3', object: 'tax.transaction' } }),
    ]);
    await calculator.reverse({ transactionId: 'tax_txn_1', reference: 'refund-1', amountWithTax: 600, full: false });
    await calculator.reverse({ transactionId: 'tax_txn_1', reference: 'refund-2', amountWithTax: 600, full: true });
    expect(requests.map((request) => request.path)).toEqual([
      '/v1/tax/transactions/create_reversal',
      '/v1/tax/transactions/create_reversal',
    ]);
    expect(Object.fromEntries(requests[0]!.params)).toEqual({
      mode: 'partial',
      original_transaction: 'tax_txn_1',
      reference: 'refund-1',
      flat_amount: '-600',
    });
    expect(requests[0]!.idempotencyKey).toBe('tax-reversal-refund-1');
    expect(Object.fromEntries(requests[1]!.params)).toEqual({
      mode: 'full',
      original_transaction: 'tax_txn_1',
      reference: 'refund-2',
    });
  });
});
