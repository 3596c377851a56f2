import { randomUUID } from 'node:crypto';
import { recordPayment, type RecordPaymentInput } from '../../src/modules/payments/payments.service.js';
import type { PaymentWire } from '../../src/modules/payments/payments.serializer.js';
import type { TestServer } from '../harness.js';

/**
 * A payment of the organization, recorded through `recordPayment` as the checkout does. A succeeded
 * $10 Visa card payment of a fresh checkout unless told.
 */
export async function paymentFactory(
  server: TestServer,
  organizationId: string,
  overrides: Partial<Omit<RecordPaymentInput, 'organization_id'>> = {},
): Promise<PaymentWire> {
  const input: RecordPaymentInput = {
    organization_id: organizationId,
    checkout_id: overrides.order_id ? null : randomUUID(),
    order_id: null,
    processor: 'simulated',
    processor_payment_id: `pi_sim_${randomUUID().replace(/-/g, '')}`,
    status: 'succeeded',
    amount: 1000,
    currency: 'usd',
    card: { brand: 'visa', last4: '4242' },
    customer_email: 'buyer@example.com',
    ...overrides,
  };
  return server.runtime.database.db.transaction().execute((db) => recordPayment(server.runtime.context(db), input));
}
