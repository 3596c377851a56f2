import { AsyncLocalStorage } from 'node:async_hooks';
import { Kysely } from 'kysely';
import Stripe from 'stripe';
import { createStripeClient } from '../../src/platform/payments/stripe.js';

/**
 * Test support: a local fake of Stripe Tax's HTTP API behind the real `stripe` client (its fetch
 * replaced), for the integration tests of the adapter's callers. It keeps state as Stripe does:
 * calculations with a rate per country (changed by a test as a government would), tax transactions made
 * from a calculation and their reversals, each `reference` unique, and a repeated `Idempotency-Key`
 * answered with the first answer. Every request records whether a database transaction was open when it
 * was made (the callers must make none inside one).
 */
export interface FakeRequest {
  method: string;
  path: string;
  params: URLSearchParams;
  idempotencyKey: string | null;
  inTransaction: boolean;
  /** The id of what the request made (a calculation, a transaction), when it succeeded. */
  madeId?: string;
}

export interface FakeTransaction {
  id: string;
  type: 'transaction' | 'reversal';
  reference: string;
  calculation: string | null;
  original_transaction: string | null;
  amount: number;
  tax: number;
}

const marked = new AsyncLocalStorage<true>();
const originalTransaction = Kysely.prototype.transaction;

/** Marks every Kysely transaction's callback, so a request made inside one is seen. */
export function markTransactions(): () => void {
  Kysely.prototype.transaction = function (this: Kysely<never>) {
    const builder = originalTransaction.call(this);
    const execute = builder.execute.bind(builder);
    return Object.assign(builder, {
      execute: <T>(callback: (trx: never) => Promise<T>) =>
        execute((trx) => marked.run(true, () => callback(trx as never))),
    });
  } as typeof Kysely.prototype.transaction;
  return () => {
    Kysely.prototype.transaction = originalTransaction;
  };
}

/** Rates in percent with their tax type, per country (the fake's "tax law"). */
type Rates = Record<string, { percent: number; type: string }>;

export function createFakeStripeTax(sellerCountry = 'FR') {
  const requests: FakeRequest[] = [];
  const rates: Rates = { FR: { percent: 20, type: 'vat' }, DE: { percent: 19, type: 'vat' } };
  const calculations = new Map<string, { amount: number; tax: number; inclusive: boolean }>();
  const transactions: FakeTransaction[] = [];
  const idempotent = new Map<string, { status: number; body: unknown }>();
  /** Called after the next calculation it matches is made (a test changes the world while Stripe answers). */
  let onCalculation: { matches: (params: URLSearchParams) => boolean; hook: () => Promise<void> } | null = null;

  /** While true, calculations answer 500 as during an outage of Stripe's. */
  const outage = { down: false };

  const error = (status: number, message: string) => ({
    status,
    body: { error: { type: 'invalid_request_error', message } },
  });

  function calculate(params: URLSearchParams) {
    const amount = Number(params.get('line_items[0][amount]'));
    const inclusive = params.get('line_items[0][tax_behavior]') === 'inclusive';
    const country = params.get('customer_details[address][country]') ?? '';
    const taxIdType = params.get('customer_details[tax_ids][0][type]');
    const rate = rates[country];
    if (!rate) return error(400, `Stripe Tax does not know the place ${country}.`);
    const reverseCharge = taxIdType === 'eu_vat' && country !== sellerCountry;
    const percent = reverseCharge ? 0 : rate.percent;
    // Half up in minor units; an inclusive amount gives its tax up.
    const tax = inclusive
      ? amount - Math.floor((amount * 100 * 2 + (100 + percent)) / (2 * (100 + percent)))
      : Math.floor((amount * percent * 2 + 100) / 200);
    const id = `taxcalc_${calculations.size + 1}`;
    calculations.set(id, { amount, tax, inclusive });
    return {
      status: 200,
      body: {
        id,
        object: 'tax.calculation',
        amount_total: inclusive ? amount : amount + tax,
        currency: params.get('currency'),
        livemode: false,
        tax_amount_exclusive: inclusive ? 0 : tax,
        tax_amount_inclusive: inclusive ? tax : 0,
        tax_breakdown: [
          {
            amount: tax,
            inclusive,
            taxable_amount: inclusive ? amount - tax : amount,
            taxability_reason: reverseCharge ? 'reverse_charge' : 'standard_rated',
            tax_rate_details: {
              country,
              state: null,
              percentage_decimal: percent.toFixed(4),
              tax_type: rate.type,
              rate_type: 'percentage',
              flat_amount: null,
            },
          },
        ],
      },
    };
  }

  function transaction(fields: Omit<FakeTransaction, 'id'>) {
    if (transactions.some((existing) => existing.reference === fields.reference)) {
      return error(400, `A transaction with reference ${fields.reference} already exists.`);
    }
    const made = { id: `tax_txn_${transactions.length + 1}`, ...fields };
    transactions.push(made);
    return {
      status: 200,
      body: { id: made.id, object: 'tax.transaction', type: made.type, reference: made.reference },
    };
  }

  function answer(request: FakeRequest) {
    const { params } = request;
    if (request.method === 'POST' && request.path === '/v1/tax/calculations') {
      if (outage.down) return { status: 500, body: { error: { type: 'api_error', message: 'Stripe is down.' } } };
      return calculate(params);
    }
    if (request.method === 'POST' && request.path === '/v1/tax/transactions/create_from_calculation') {
      const calculation = calculations.get(params.get('calculation') ?? '');
      if (!calculation) return error(404, 'No such calculation.');
      return transaction({
        type: 'transaction',
        reference: params.get('reference') ?? '',
        calculation: params.get('calculation'),
        original_transaction: null,
        amount: calculation.amount,
        tax: calculation.tax,
      });
    }
    if (request.method === 'POST' && request.path === '/v1/tax/transactions/create_reversal') {
      const original = transactions.find((existing) => existing.id === params.get('original_transaction'));
      if (!original) return error(404, 'No such transaction.');
      return transaction({
        type: 'reversal',
        reference: params.get('reference') ?? '',
        calculation: null,
        original_transaction: original.id,
        amount: Number(params.get('flat_amount') ?? -(original.amount + original.tax)),
        tax: 0,
      });
    }
    return error(404, `Unrecognized request URL (${request.method}: ${request.path}).`);
  }

  const fetchFn = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const parsed = new URL(String(url));
    const headers = new Headers(init?.headers as ConstructorParameters<typeof Headers>[0]);
    const request: FakeRequest = {
      method: init?.method ?? 'GET',
      path: parsed.pathname,
      params: new URLSearchParams(typeof init?.body === 'string' ? init.body : ''),
      idempotencyKey: headers.get('idempotency-key'),
      inTransaction: Boolean(marked.getStore()),
    };
    requests.push(request);
    const key = request.idempotencyKey ? `${request.path} ${request.idempotencyKey}` : null;
    const reply = (key && idempotent.get(key)) || answer(request);
    if (key && reply.status < 500) idempotent.set(key, reply);
    if (reply.status === 200) request.madeId = (reply.body as { id: string }).id;
    if (request.path === '/v1/tax/calculations' && onCalculation?.matches(request.params)) {
      const { hook } = onCalculation;
      onCalculation = null;
      await hook();
    }
    return new Response(JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json', 'request-id': `req_${requests.length}` },
    });
  };

  const client = createStripeClient('sk_test_fake', {
    httpClient: Stripe.createFetchHttpClient(fetchFn as typeof fetch),
    maxNetworkRetries: 0,
  });

  return {
    client,
    requests,
    rates,
    transactions,
    outage,
    /** The calculations asked (their requests), in order. */
    calculationRequests: () => requests.filter((request) => request.path === '/v1/tax/calculations'),
    /**
     * Runs `hook` once, after the next calculation `matches` accepts is made and before Stripe's answer
     * reaches Tessera.
     */
    afterNextCalculation(matches: (params: URLSearchParams) => boolean, hook: () => Promise<void>) {
      onCalculation = { matches, hook };
    },
  };
}

export type FakeStripeTax = ReturnType<typeof createFakeStripeTax>;

/** One fake per test file (the module mocking `platform/stripe-tax.js` and the test share it). */
export const fakeStripeTax = createFakeStripeTax();
