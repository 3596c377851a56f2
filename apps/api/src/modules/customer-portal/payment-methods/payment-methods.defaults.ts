import { randomUUID } from 'node:crypto';
import { z } from 'zod/v4';
import type { Context } from '../../../platform/context.js';
import { defineJob, runIn, runOnClock } from '../../../platform/jobs/queue.js';
import type { CardDetails } from '../../../platform/payments/processor.js';
import { onOrganizationClock } from '../../../platform/test-clock.js';
import { attemptCharge } from '../../subscriptions/subscriptions.renewal.js';
import {
  billSubscriptionsTo,
  bringPastDueChargesForward,
  findActiveMethodByProcessorId,
  findActiveMethodsOfCustomer,
  insertMethod,
  lockCustomerPaymentMethods,
  setDefaultMethod,
  type PaymentMethodRow,
} from './payment-methods.repository.js';

/**
 * The customer's default payment method, and what follows from it. Every billable subscription of a
 * customer is billed to the customer's default (as Stripe bills a customer's invoice default): when the
 * default changes, their `payment_method_id` follows, so renewals and dunning retries charge the new
 * one. A past-due subscription does not wait for its next dunning retry: its pending charge is due at
 * once, and a retry job is enqueued in the same transaction (it runs after the commit; the charge
 * itself is made by the job with no transaction open).
 */
export async function makeDefault(ctx: Context, method: PaymentMethodRow): Promise<void> {
  await lockCustomerPaymentMethods(ctx.db, method.customer_id);
  const now = ctx.clock.now();
  await setDefaultMethod(ctx.db, method.customer_id, method.id, now);
  await billSubscriptionsTo(ctx.db, method.customer_id, method.processor_payment_method_id!, now);
  const due = await bringPastDueChargesForward(ctx.db, method.customer_id, now);
  for (const charge of due) {
    await ctx.jobs.enqueue(retryPastDueChargeJob, {
      order_id: charge.order_id,
      organization_id: charge.organization_id,
    });
  }
}

/**
 * A method the processor saved at a checkout of a recurring product: the customer's list shows it, and
 * it becomes the default (the latest card the customer gave is the one that bills, as the reference's
 * checkout sets its method as the customer's default). Called in the checkout's settling transaction.
 */
export async function recordSavedPaymentMethod(
  ctx: Context,
  input: {
    organizationId: string;
    customerId: string;
    processor: 'simulated' | 'stripe';
    paymentMethodId: string;
    card: CardDetails | null;
  },
): Promise<void> {
  const now = ctx.clock.now();
  await lockCustomerPaymentMethods(ctx.db, input.customerId);
  let method = await findActiveMethodByProcessorId(ctx.db, input.customerId, input.paymentMethodId);
  if (!method) {
    const card = input.card && input.card.last4 ? input.card : null;
    method = await insertMethod(ctx.db, {
      id: randomUUID(),
      created_at: now,
      organization_id: input.organizationId,
      customer_id: input.customerId,
      processor: input.processor,
      status: 'active',
      idempotency_key: `checkout-saved:${input.customerId}:${input.paymentMethodId}`,
      processor_payment_method_id: input.paymentMethodId,
      type: 'card',
      brand: card?.brand ?? null,
      last4: card?.last4 ?? null,
      exp_month: card?.exp_month ?? null,
      exp_year: card?.exp_year ?? null,
    });
  }
  await makeDefault(ctx, method);
}

/** Whether the customer has a default method (the first method saved becomes it). */
export async function hasDefault(ctx: Context, customerId: string): Promise<boolean> {
  return (await findActiveMethodsOfCustomer(ctx.db, customerId)).some((method) => method.is_default);
}

/**
 * Charges a past-due subscription's pending order again now that its customer set a new default (on
 * the organization's clock, which its charge's due time was set by). The attempt is the renewal
 * engine's: read in a short transaction, the processor called with none open, the outcome recorded in
 * a transaction of its own; an attempt already made or recorded is not made twice.
 */
export const retryPastDueChargeJob = defineJob({
  name: 'subscription.retry_past_due_charge',
  schema: z.object({ order_id: z.uuid(), organization_id: z.uuid() }),
  transaction: false,
  retryLimit: 3,
  async handle(ctx, data, run) {
    const own = await onOrganizationClock(ctx, data.organization_id);
    await attemptCharge(own, runOnClock(run ?? runIn(ctx), own.clock), data.order_id);
  },
});
