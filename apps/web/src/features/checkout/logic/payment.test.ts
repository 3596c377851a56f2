import { describe, expect, it } from 'vitest';
import { nextAction, paymentMethodForm } from './payment';

describe('nextAction', () => {
  it.each([
    [
      { intent_status: 'requires_action', intent_client_secret: 'pi_1_secret_2' },
      { kind: 'authenticate', clientSecret: 'pi_1_secret_2' },
    ],
    [{ intent_status: 'requires_action' }, null],
    [{ intent_status: 'processing' }, null],
    [{}, null],
    [{ publishable_key: 'pk_test_1' }, null],
  ])('%j → %j', (metadata, expected) => {
    expect(nextAction({ payment_processor_metadata: metadata })).toEqual(expected);
  });
});

describe('paymentMethodForm', () => {
  it('is Stripe with a publishable key, else the simulated card form', () => {
    expect(paymentMethodForm({ payment_processor_metadata: { publishable_key: 'pk_1' } })).toEqual({
      kind: 'stripe',
      publishableKey: 'pk_1',
    });
    expect(paymentMethodForm({ payment_processor_metadata: {} })).toEqual({ kind: 'simulated' });
  });
});
