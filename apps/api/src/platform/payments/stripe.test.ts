import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { createStripeClient, StripePaymentProcessor, verifyStripeWebhook } from './stripe.js';

/**
 * The Stripe adapter against recorded request and response shapes: a fake `fetch` asserts each request
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

function fakeStripe(replies: ((request: Recorded) => Reply)[]) {
  const requests: Recorded[] = [];
  const fetchFn = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const parsed = new URL(String(url));
    const headers = new Headers(init?.headers as ConstructorParameters<typeof Headers>[0]);
    const body = typeof init?.body === 'string' ? init.body : '';
    const request: Recorded = {
      method: init?.method ?? 'GET',
      path: parsed.pathname,
      params: new URLSearchParams(init?.method === 'GET' ? parsed.search : body),
      idempotencyKey: headers.get('idempotency-key'),
    };
    requests.push(request);
    const reply = replies.shift();
    if (!reply) throw new Error(`unexpected request ${request.method} ${request.path}`);
    const { status, body: json } = reply(request);
    return new Response(JSON.stringify(json), {
      status,
      headers: { 'content-type': 'application/json', 'request-id': `req_${requests.length}` },
    });
  };
  const stripe = createStripeClient('sk_test_fake', {
    httpClient: Stripe.createFetchHttpClient(fetchFn as typeof fetch),
    maxNetworkRetries: 0,
  });
  return { processor: new StripePaymentProcessor(stripe), requests };
}

const customer = { customerId: 'c0ffee00-0000-4000-8000-000000000001', email: 'buyer@example.com', name: 'Buyer' };

const card = (last4: string, brand = 'visa') => ({
  id: `pm_${last4}`,
  object: 'payment_method',
  type: 'card',
  card: { brand, last4, exp_month: 12, exp_year: 2030, country: 'US', funding: 'credit' },
  customer: 'cus_123',
  livemode: false,
  metadata: {},
});

const paymentIntent = (fields: Record<string, unknown>) => ({
  id: 'pi_123',
  object: 'payment_intent',
  amount: 1000,
  amount_received: 1000,
  currency: 'usd',
  customer: 'cus_123',
  livemode: false,
  metadata: {},
  last_payment_error: null,
  latest_charge: 'ch_123',
  ...fields,
});

const cardError = (fields: Record<string, unknown>) => ({
  error: {
    type: 'card_error',
    doc_url: 'https://docs.stripe.com/error-codes/card-declined',
    request_log_url: 'https://dashboard.stripe.com/test/logs/req_1',
    ...fields,
  },
});

const searchEmpty = () => ({
  status: 200,
  body: { object: 'search_result', data: [], has_more: false, next_page: null, url: '/v1/customers/search' },
});
const searchFound = () => ({
  status: 200,
  body: {
    object: 'search_result',
    data: [{ id: 'cus_123', object: 'customer', email: customer.email, metadata: {} }],
    has_more: false,
    next_page: null,
    url: '/v1/customers/search',
  },
});

describe('Stripe adapter', () => {
  it('creates the Stripe customer on first use, then charges a confirmation token and saves the card', async () => {
    const { processor, requests } = fakeStripe([
      searchEmpty,
      () => ({
        status: 200,
        body: {
          id: 'cus_123',
          object: 'customer',
          email: customer.email,
          metadata: { tessera_customer_id: customer.customerId },
        },
      }),
      () => ({
        status: 200,
        body: paymentIntent({ status: 'succeeded', payment_method: card('4242'), setup_future_usage: 'off_session' }),
      }),
    ]);
    const result = await processor.chargeWithConfirmationToken({
      amount: 1000,
      currency: 'usd',
      confirmationTokenId: 'ctoken_123',
      customer,
      savePaymentMethod: true,
      idempotencyKey: 'checkout-1-confirm',
      metadata: { checkout_id: 'checkout-1' },
    });
    expect(result).toEqual({
      status: 'succeeded',
      processorPaymentId: 'pi_123',
      card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
      paymentMethodId: 'pm_4242',
    });

    const [search, create, intent] = requests;
    expect(search).toMatchObject({ method: 'GET', path: '/v1/customers/search' });
    expect(search!.params.get('query')).toBe(`metadata['tessera_customer_id']:'${customer.customerId}'`);
    expect(create).toMatchObject({
      method: 'POST',
      path: '/v1/customers',
      idempotencyKey: `tessera-customer-${customer.customerId}`,
    });
    expect(Object.fromEntries(create!.params)).toEqual({
      email: 'buyer@example.com',
      name: 'Buyer',
      'metadata[tessera_customer_id]': customer.customerId,
    });
    expect(intent).toMatchObject({ method: 'POST', path: '/v1/payment_intents', idempotencyKey: 'checkout-1-confirm' });
    expect(Object.fromEntries(intent!.params)).toEqual({
      amount: '1000',
      currency: 'usd',
      customer: 'cus_123',
      confirm: 'true',
      confirmation_token: 'ctoken_123',
      'automatic_payment_methods[enabled]': 'true',
      'automatic_payment_methods[allow_redirects]': 'never',
      setup_future_usage: 'off_session',
      'metadata[checkout_id]': 'checkout-1',
      'metadata[tessera_idempotency_key]': 'checkout-1-confirm',
      'expand[0]': 'payment_method',
    });
  });

  it('maps card_declined to a failed result with the decline code and message', async () => {
    const { processor, requests } = fakeStripe([
      searchFound,
      () => ({
        status: 402,
        body: cardError({
          code: 'card_declined',
          decline_code: 'generic_decline',
          message: 'Your card was declined.',
          payment_intent: paymentIntent({ status: 'requires_payment_method', payment_method: null }),
          payment_method: card('0002'),
        }),
      }),
    ]);
    const result = await processor.chargeWithConfirmationToken({
      amount: 1000,
      currency: 'usd',
      confirmationTokenId: 'ctoken_declined',
      customer,
      savePaymentMethod: false,
      idempotencyKey: 'k-declined',
      metadata: {},
    });
    expect(result).toEqual({
      status: 'failed',
      processorPaymentId: 'pi_123',
      declineReason: 'card_declined',
      declineMessage: 'Your card was declined.',
      card: { brand: 'visa', last4: '0002', exp_month: 12, exp_year: 2030 },
    });
    expect(requests[1]!.params.has('setup_future_usage')).toBe(false);
  });

  it('maps insufficient_funds (the decline code of a card_declined error)', async () => {
    const { processor } = fakeStripe([
      searchFound,
      () => ({
        status: 402,
        body: cardError({
          code: 'card_declined',
          decline_code: 'insufficient_funds',
          message: 'Your card has insufficient funds.',
          payment_intent: paymentIntent({ status: 'requires_payment_method', payment_method: null }),
        }),
      }),
    ]);
    const result = await processor.chargeWithConfirmationToken({
      amount: 1000,
      currency: 'usd',
      confirmationTokenId: 'ctoken_nsf',
      customer,
      savePaymentMethod: false,
      idempotencyKey: 'k-nsf',
      metadata: {},
    });
    expect(result).toMatchObject({
      status: 'failed',
      declineReason: 'insufficient_funds',
      declineMessage: 'Your card has insufficient funds.',
      card: null,
    });
  });

  it('charges a saved method off-session; authentication_required fails the renewal', async () => {
    const { processor, requests } = fakeStripe([
      searchFound,
      () => ({
        status: 402,
        body: cardError({
          code: 'authentication_required',
          decline_code: 'authentication_required',
          message: 'Your card was declined. This transaction requires authentication.',
          payment_intent: paymentIntent({
            id: 'pi_456',
            status: 'requires_payment_method',
            payment_method: card('3184'),
          }),
        }),
      }),
    ]);
    const result = await processor.chargeSavedPaymentMethod({
      amount: 1500,
      currency: 'eur',
      paymentMethodId: 'pm_3184',
      customer,
      idempotencyKey: 'renewal-sub-1-2026-02',
      metadata: {},
    });
    expect(result).toEqual({
      status: 'failed',
      processorPaymentId: 'pi_456',
      declineReason: 'authentication_required',
      declineMessage: 'Your card was declined. This transaction requires authentication.',
      card: { brand: 'visa', last4: '3184', exp_month: 12, exp_year: 2030 },
    });
    expect(requests[1]).toMatchObject({ path: '/v1/payment_intents', idempotencyKey: 'renewal-sub-1-2026-02' });
    expect(Object.fromEntries(requests[1]!.params)).toEqual({
      amount: '1500',
      currency: 'eur',
      customer: 'cus_123',
      payment_method: 'pm_3184',
      off_session: 'true',
      confirm: 'true',
      'expand[0]': 'payment_method',
    });
  });

  it('saves a card with a SetupIntent', async () => {
    const { processor, requests } = fakeStripe([
      searchFound,
      () => ({
        status: 200,
        body: {
          id: 'seti_123',
          object: 'setup_intent',
          status: 'succeeded',
          customer: 'cus_123',
          usage: 'off_session',
          payment_method: card('4242'),
          last_setup_error: null,
          metadata: {},
        },
      }),
    ]);
    const result = await processor.setupWithConfirmationToken({
      confirmationTokenId: 'ctoken_setup',
      customer,
      idempotencyKey: 'checkout-2-setup',
      metadata: {},
    });
    expect(result).toEqual({
      status: 'succeeded',
      paymentMethodId: 'pm_4242',
      card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
    });
    expect(requests[1]).toMatchObject({ path: '/v1/setup_intents', idempotencyKey: 'checkout-2-setup' });
    expect(requests[1]!.params.get('usage')).toBe('off_session');
    expect(requests[1]!.params.get('confirmation_token')).toBe('ctoken_setup');
  });

  it('refunds with the idempotency key, and reports pending and failed refunds', async () => {
    const { processor, requests } = fakeStripe([
      () => ({
        status: 200,
        body: {
          id: 're_1',
          object: 'refund',
          amount: 500,
          status: 'succeeded',
          payment_intent: 'pi_123',
          metadata: {},
        },
      }),
      () => ({
        status: 200,
        body: { id: 're_2', object: 'refund', amount: 500, status: 'pending', payment_intent: 'pi_123', metadata: {} },
      }),
      () => ({
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'charge_already_refunded',
            message: 'Charge ch_123 has already been refunded.',
          },
        },
      }),
    ]);
    expect(
      await processor.refund({
        processorPaymentId: 'pi_123',
        amount: 500,
        idempotencyKey: 'refund-1',
        reason: 'duplicate',
      }),
    ).toEqual({ status: 'succeeded', processorRefundId: 're_1' });
    expect(Object.fromEntries(requests[0]!.params)).toEqual({
      payment_intent: 'pi_123',
      amount: '500',
      reason: 'duplicate',
      'metadata[reason]': 'duplicate',
    });
    expect(requests[0]).toMatchObject({ path: '/v1/refunds', idempotencyKey: 'refund-1' });
    expect(
      await processor.refund({
        processorPaymentId: 'pi_123',
        amount: 500,
        idempotencyKey: 'refund-2',
        reason: 'other',
      }),
    ).toEqual({ status: 'pending', processorRefundId: 're_2' });
    expect(requests[1]!.params.get('reason')).toBe('requested_by_customer');
    expect(
      await processor.refund({
        processorPaymentId: 'pi_123',
        amount: 500,
        idempotencyKey: 'refund-3',
        reason: 'other',
      }),
    ).toEqual({ status: 'failed', processorRefundId: null, failureReason: 'charge_already_refunded' });
  });

  it("charges several saved methods, one PaymentIntent each; an outage is that charge's error alone", async () => {
    const route = (request: Recorded): Reply => {
      if (request.path === '/v1/customers/search') return searchFound();
      if (request.idempotencyKey === 'renewal-b')
        return { status: 500, body: { error: { type: 'api_error', message: 'Something went wrong.' } } };
      return {
        status: 200,
        body: paymentIntent({ id: 'pi_a', status: 'succeeded', amount: 700, payment_method: card('4242') }),
      };
    };
    const { processor, requests } = fakeStripe(Array.from({ length: 4 }, () => route));
    const charge = (idempotencyKey: string) => ({
      amount: 700,
      currency: 'usd',
      paymentMethodId: 'pm_4242',
      customer,
      idempotencyKey,
      metadata: {},
    });
    const answers = await processor.chargeSavedPaymentMethods([charge('renewal-a'), charge('renewal-b')]);
    expect(answers[0]).toMatchObject({ status: 'succeeded', processorPaymentId: 'pi_a' });
    expect(answers[1]).toBeInstanceOf(Stripe.errors.StripeAPIError);
    const intents = requests.filter((request) => request.path === '/v1/payment_intents');
    expect(intents.map((request) => request.idempotencyKey).sort()).toEqual(['renewal-a', 'renewal-b']);
  });

  it('throws what is not a decline (authentication to Stripe, outages)', async () => {
    const { processor } = fakeStripe([
      () => ({
        status: 401,
        body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_***fake' } },
      }),
    ]);
    await expect(processor.stripeCustomerId(customer)).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });
});

describe('verifyStripeWebhook', () => {
  const secret = 'whsec_test_secret';
  const payload = JSON.stringify({
    id: 'evt_1',
    object: 'event',
    type: 'payment_intent.succeeded',
    data: { object: {} },
  });

  it('returns the event when the signature matches', () => {
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret });
    expect(verifyStripeWebhook(payload, header, secret)).toMatchObject({
      id: 'evt_1',
      type: 'payment_intent.succeeded',
    });
  });

  it('throws on a wrong signature or secret', () => {
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' });
    expect(() => verifyStripeWebhook(payload, header, secret)).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(() =>
      verifyStripeWebhook(
        payload.replace('evt_1', 'evt_2'),
        Stripe.webhooks.generateTestHeaderString({ payload, secret }),
        secret,
      ),
    ).toThrow();
  });
});

describe('checkout charges that wait, and outcomes asked again', () => {
  const charge = (processor: StripePaymentProcessor) =>
    processor.chargeWithConfirmationToken({
      amount: 1000,
      currency: 'usd',
      confirmationTokenId: 'ctoken_3ds',
      customer,
      savePaymentMethod: false,
      idempotencyKey: 'checkout:c1:attempt:1',
      metadata: { checkout_id: 'c1' },
    });

  it('requires_action (3-D Secure) is not a decline: it carries the client secret for Stripe.js', async () => {
    const { processor } = fakeStripe([
      searchFound,
      () => ({
        status: 200,
        body: paymentIntent({
          status: 'requires_action',
          client_secret: 'pi_123_secret_abc',
          next_action: { type: 'use_stripe_sdk', use_stripe_sdk: {} },
          payment_method: card('3155'),
        }),
      }),
    ]);
    expect(await charge(processor)).toEqual({
      status: 'requires_action',
      processorPaymentId: 'pi_123',
      clientSecret: 'pi_123_secret_abc',
      card: { brand: 'visa', last4: '3155', exp_month: 12, exp_year: 2030 },
    });
  });

  it('processing waits for the bank', async () => {
    const { processor } = fakeStripe([
      searchFound,
      () => ({ status: 200, body: paymentIntent({ status: 'processing', payment_method: card('4242') }) }),
    ]);
    expect(await charge(processor)).toMatchObject({ status: 'processing', processorPaymentId: 'pi_123' });
  });

  it('retrieves a charge by its PaymentIntent id, or finds it by the idempotency key in its metadata', async () => {
    const { processor, requests } = fakeStripe([
      () => ({ status: 200, body: paymentIntent({ status: 'succeeded', payment_method: card('3155') }) }),
      () => ({
        status: 200,
        body: {
          object: 'search_result',
          data: [paymentIntent({ id: 'pi_found', status: 'succeeded', payment_method: card('4242') })],
          has_more: false,
          next_page: null,
          url: '/v1/payment_intents/search',
        },
      }),
      () => ({
        status: 200,
        body: {
          object: 'search_result',
          data: [],
          has_more: false,
          next_page: null,
          url: '/v1/payment_intents/search',
        },
      }),
      () => ({
        status: 200,
        body: paymentIntent({
          status: 'requires_payment_method',
          payment_method: null,
          last_payment_error: {
            type: 'card_error',
            code: 'payment_intent_authentication_failure',
            message: 'We are unable to authenticate your payment method.',
          },
        }),
      }),
    ]);
    const byId = await processor.retrieveCharge({
      idempotencyKey: 'checkout:c1:attempt:1',
      processorPaymentId: 'pi_123',
      customer,
      savePaymentMethod: true,
    });
    expect(byId).toMatchObject({ status: 'succeeded', processorPaymentId: 'pi_123', paymentMethodId: 'pm_3155' });
    const byKey = () =>
      processor.retrieveCharge({
        idempotencyKey: 'checkout:c1:attempt:1',
        processorPaymentId: null,
        customer,
        savePaymentMethod: false,
      });
    expect(await byKey()).toMatchObject({ status: 'succeeded', processorPaymentId: 'pi_found', paymentMethodId: null });
    expect(await byKey()).toEqual({ status: 'not_found' });
    const failed = await processor.retrieveCharge({
      idempotencyKey: 'k',
      processorPaymentId: 'pi_123',
      customer,
      savePaymentMethod: false,
    });
    expect(failed).toMatchObject({ status: 'failed', declineReason: 'payment_intent_authentication_failure' });

    expect(requests[0]).toMatchObject({ method: 'GET', path: '/v1/payment_intents/pi_123' });
    expect(requests[1]).toMatchObject({ method: 'GET', path: '/v1/payment_intents/search' });
    expect(requests[1]!.params.get('query')).toBe(`metadata['tessera_idempotency_key']:'checkout:c1:attempt:1'`);
  });

  it("retrieves a setup among the customer's SetupIntents by the idempotency key", async () => {
    const setupIntent = (key: string, fields: Record<string, unknown>) => ({
      id: `seti_${key}`,
      object: 'setup_intent',
      customer: 'cus_123',
      metadata: { tessera_idempotency_key: key },
      last_setup_error: null,
      ...fields,
    });
    const { processor, requests } = fakeStripe([
      searchFound,
      () => ({
        status: 200,
        body: {
          object: 'list',
          data: [
            setupIntent('other', { status: 'succeeded', payment_method: card('0000') }),
            setupIntent('checkout:c2:attempt:1', { status: 'succeeded', payment_method: card('4242') }),
          ],
          has_more: false,
          url: '/v1/setup_intents',
        },
      }),
    ]);
    expect(await processor.retrieveSetup({ idempotencyKey: 'checkout:c2:attempt:1', customer })).toEqual({
      status: 'succeeded',
      paymentMethodId: 'pm_4242',
      card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
    });
    expect(requests[1]).toMatchObject({ method: 'GET', path: '/v1/setup_intents' });
    expect(requests[1]!.params.get('customer')).toBe('cus_123');
  });
});

describe('portal payment methods', () => {
  const setupIntent = (fields: Record<string, unknown>) => ({
    id: 'seti_portal',
    object: 'setup_intent',
    customer: 'cus_123',
    usage: 'off_session',
    last_setup_error: null,
    metadata: {},
    ...fields,
  });
  const add = (processor: StripePaymentProcessor) =>
    processor.setupPaymentMethod({
      confirmationTokenId: 'ctoken_portal',
      customer,
      idempotencyKey: 'payment-method:m1',
      returnUrl: 'https://billing.example.com/portal/acme/payment-methods?payment_method_id=m1',
      metadata: { customer_id: customer.customerId },
    });

  it('confirms a SetupIntent with the confirmation token, the return URL and the idempotency key', async () => {
    const { processor, requests } = fakeStripe([
      searchFound,
      () => ({ status: 200, body: setupIntent({ status: 'succeeded', payment_method: card('4444', 'mastercard') }) }),
    ]);
    expect(await add(processor)).toEqual({
      status: 'succeeded',
      paymentMethodId: 'pm_4444',
      card: { brand: 'mastercard', last4: '4444', exp_month: 12, exp_year: 2030 },
    });
    const request = requests[1]!;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/setup_intents', idempotencyKey: 'payment-method:m1' });
    expect(request.params.get('customer')).toBe('cus_123');
    expect(request.params.get('confirm')).toBe('true');
    expect(request.params.get('confirmation_token')).toBe('ctoken_portal');
    expect(request.params.get('usage')).toBe('off_session');
    expect(request.params.get('return_url')).toBe(
      'https://billing.example.com/portal/acme/payment-methods?payment_method_id=m1',
    );
    expect(request.params.get('automatic_payment_methods[enabled]')).toBe('true');
    expect(request.params.get('metadata[tessera_idempotency_key]')).toBe('payment-method:m1');
  });

  it('3-D Secure: requires_action carries the SetupIntent and its client secret; retrieved once authenticated', async () => {
    const { processor, requests } = fakeStripe([
      searchFound,
      () => ({
        status: 200,
        body: setupIntent({
          status: 'requires_action',
          client_secret: 'seti_portal_secret_abc',
          payment_method: card('3155'),
          next_action: { type: 'use_stripe_sdk' },
        }),
      }),
      () => ({ status: 200, body: setupIntent({ status: 'succeeded', payment_method: card('3155') }) }),
    ]);
    expect(await add(processor)).toEqual({
      status: 'requires_action',
      processorSetupId: 'seti_portal',
      clientSecret: 'seti_portal_secret_abc',
    });
    expect(await processor.retrievePaymentMethodSetup({ processorSetupId: 'seti_portal', customer })).toEqual({
      status: 'succeeded',
      paymentMethodId: 'pm_3155',
      card: { brand: 'visa', last4: '3155', exp_month: 12, exp_year: 2030 },
    });
    expect(requests[2]).toMatchObject({ method: 'GET', path: '/v1/setup_intents/seti_portal' });
    expect(requests[2]!.params.getAll('expand[]').length + requests[2]!.params.getAll('expand[0]').length).toBe(1);
  });

  it('a failed authentication or a decline is a failed result; a setup of another customer is not found', async () => {
    const { processor } = fakeStripe([
      searchFound,
      () => ({
        status: 402,
        body: cardError({ code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' }),
      }),
      () => ({
        status: 200,
        body: setupIntent({
          status: 'requires_payment_method',
          payment_method: null,
          last_setup_error: {
            code: 'setup_intent_authentication_failure',
            message: 'We are unable to authenticate your payment method.',
          },
        }),
      }),
      () => ({
        status: 200,
        body: setupIntent({ customer: 'cus_other', status: 'succeeded', payment_method: card('1') }),
      }),
      () => ({
        status: 404,
        body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such setupintent' } },
      }),
    ]);
    expect(await add(processor)).toEqual({
      status: 'failed',
      declineReason: 'card_declined',
      declineMessage: 'Your card was declined.',
    });
    expect(await processor.retrievePaymentMethodSetup({ processorSetupId: 'seti_portal', customer })).toEqual({
      status: 'failed',
      declineReason: 'setup_intent_authentication_failure',
      declineMessage: 'We are unable to authenticate your payment method.',
    });
    expect(await processor.retrievePaymentMethodSetup({ processorSetupId: 'seti_portal', customer })).toEqual({
      status: 'not_found',
    });
    expect(await processor.retrievePaymentMethodSetup({ processorSetupId: 'seti_gone', customer })).toEqual({
      status: 'not_found',
    });
  });

  it('detaches a method; one detached already is not an error', async () => {
    const { processor, requests } = fakeStripe([
      () => ({ status: 200, body: { ...card('4242'), customer: null } }),
      () => ({
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'payment_method_unexpected_state',
            message: 'The payment method you provided is not attached to a customer so detachment is impossible.',
          },
        },
      }),
    ]);
    await processor.detachPaymentMethod({ paymentMethodId: 'pm_4242', customer });
    await processor.detachPaymentMethod({ paymentMethodId: 'pm_4242', customer });
    expect(requests.map((r) => [r.method, r.path])).toEqual([
      ['POST', '/v1/payment_methods/pm_4242/detach'],
      ['POST', '/v1/payment_methods/pm_4242/detach'],
    ]);
  });
});
