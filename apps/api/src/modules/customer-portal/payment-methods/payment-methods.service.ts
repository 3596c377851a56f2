import { randomUUID } from 'node:crypto';
import type { Context } from '../../../platform/context.js';
import { BadRequest, ResourceNotFound } from '../../../platform/http/errors.js';
import { pageOf, type PageParams } from '../../../platform/http/query.js';
import { runIn, type JobRun } from '../../../platform/jobs/queue.js';
import { PaymentProcessorUnavailable, UnavailablePaymentProcessor } from '../../../platform/payments/index.js';
import type { PaymentMethodSetupResult, ProcessorCustomerInput } from '../../../platform/payments/processor.js';
import { onOrganizationClock } from '../../../platform/test-clock.js';
import type { CustomerRow } from '../../customers/customers.repository.js';
import { findSessionCustomer } from '../customer-portal.repository.js';
import { hasDefault, makeDefault } from './payment-methods.defaults.js';
import { PaymentMethodNotConfirmed, PaymentMethodRefused } from './payment-methods.errors.js';
import {
  countSubscriptionsBilledBy,
  findActiveMethodsOfCustomer,
  findMethodById,
  findOwnedMethod,
  insertMethod,
  listActiveMethods,
  lockCustomerPaymentMethods,
  lockMethod,
  pageActiveMethodsOfCustomer,
  updateMethod,
  type PaymentMethodRow,
} from './payment-methods.repository.js';
import { planRemoval, safeReturnUrl, STILL_NEEDED } from './payment-methods.rules.js';
import type {
  CustomerPaymentMethodCreateInput,
  CustomerPaymentMethodCreateResponseWire,
  CustomerPaymentMethodProcessorWire,
} from './payment-methods.schemas.js';
import {
  serializeCustomerPaymentMethod,
  serializePaymentMethod,
  type PaymentMethodWire,
} from './payment-methods.serializer.js';

/**
 * The customer's saved payment methods in the portal. Adding one follows the three steps of every
 * processor call: a `pending` method is committed, the processor saves the card with no transaction
 * open (idempotency key `payment-method:{id}`), and the outcome is recorded once in a transaction of its
 * own. A card that asks for 3-D Secure answers `requires_action` with the client secret; the page
 * completes it and `confirm` asks the processor again.
 */

export async function listPaymentMethods(ctx: Context, params: PageParams) {
  const { rows, total } = await listActiveMethods(ctx.db, ctx.subject, params);
  return pageOf(rows.map(serializePaymentMethod), total, params);
}

/**
 * The seller's read of a customer's saved methods (`GET /v1/customers/{id}/payment-methods`): the
 * customers module resolves a customer the subject may see, then asks here.
 */
export async function listCustomerPaymentMethods(ctx: Context, customer: CustomerRow, params: PageParams) {
  const { rows, total } = await pageActiveMethodsOfCustomer(ctx.db, customer.id, params);
  return pageOf(rows.map(serializeCustomerPaymentMethod), total, params);
}

/** `GET …/payment-methods/processor`: which card form the page shows. */
export function paymentMethodProcessor(ctx: Context): CustomerPaymentMethodProcessorWire {
  const stripe = Boolean(ctx.config.stripeSecretKey && ctx.config.stripePublishableKey);
  return {
    processor: stripe ? 'stripe' : 'simulated',
    publishable_key: stripe ? ctx.config.stripePublishableKey! : null,
  };
}

async function sessionCustomer(ctx: Context, lock = false): Promise<{ customer: CustomerRow; ctx: Context }> {
  const customer = await findSessionCustomer(ctx.db, ctx.subject, lock);
  if (!customer) throw new ResourceNotFound();
  return { customer, ctx: await onOrganizationClock(ctx, customer.organization_id) };
}

function processorCustomer(customer: CustomerRow): ProcessorCustomerInput {
  return { customerId: customer.id, email: customer.email, name: customer.name };
}

function processorOf(ctx: Context) {
  if (!ctx.payments || ctx.payments instanceof UnavailablePaymentProcessor) throw new PaymentProcessorUnavailable();
  return ctx.payments;
}

type SetupOutcome = PaymentMethodSetupResult | { status: 'interrupted' };

type Settled =
  | { status: 'succeeded'; row: PaymentMethodRow }
  | { status: 'requires_action'; row: PaymentMethodRow; clientSecret: string }
  | { status: 'failed'; message: string }
  | { status: 'interrupted' };

async function askProcessor(base: Context, call: () => Promise<SetupOutcome>, methodId: string): Promise<SetupOutcome> {
  try {
    return await call();
  } catch (error) {
    // The method stays pending: nothing was charged, and the customer may simply add it again.
    base.log.warn(
      { paymentMethodId: methodId, error: error instanceof Error ? error.name : 'unknown' },
      'payment method: no answer from the processor',
    );
    return { status: 'interrupted' };
  }
}

/**
 * Step 3: the processor's answer recorded once. Saved: the method is usable, and becomes the default
 * when asked or when the customer has none (then the subscriptions follow it, and a past-due one is
 * charged again at once).
 */
async function settle(base: Context, run: JobRun, methodId: string, outcome: SetupOutcome): Promise<Settled> {
  return run.transaction(async (tx) => {
    const unlocked = (await findMethodById(tx.db, methodId))!;
    await lockCustomerPaymentMethods(tx.db, unlocked.customer_id);
    const method = (await lockMethod(tx.db, methodId))!;
    const ctx = await onOrganizationClock({ ...tx, log: base.log }, method.organization_id);
    const now = ctx.clock.now();
    if (method.status === 'active') return { status: 'succeeded', row: method };
    if (method.status === 'failed' || method.status === 'removed')
      return { status: 'failed', message: 'This payment method could not be saved.' };
    switch (outcome.status) {
      case 'interrupted':
        return { status: 'interrupted' };
      case 'requires_action': {
        const row = await updateMethod(ctx.db, method.id, {
          status: 'requires_action',
          processor_setup_id: outcome.processorSetupId,
          modified_at: now,
        });
        return { status: 'requires_action', row, clientSecret: outcome.clientSecret };
      }
      case 'failed':
        await updateMethod(ctx.db, method.id, {
          status: 'failed',
          decline_reason: outcome.declineReason,
          modified_at: now,
        });
        return { status: 'failed', message: outcome.declineMessage };
      case 'succeeded': {
        let row = await updateMethod(ctx.db, method.id, {
          status: 'active',
          processor_payment_method_id: outcome.paymentMethodId,
          brand: outcome.card.last4 ? outcome.card.brand : null,
          last4: outcome.card.last4 || null,
          exp_month: outcome.card.last4 ? outcome.card.exp_month : null,
          exp_year: outcome.card.last4 ? outcome.card.exp_year : null,
          modified_at: now,
        });
        if (row.set_default || !(await hasDefault(ctx, row.customer_id))) {
          await makeDefault(ctx, row);
          row = (await lockMethod(ctx.db, row.id))!;
        }
        return { status: 'succeeded', row };
      }
    }
  });
}

function answer(settled: Settled): CustomerPaymentMethodCreateResponseWire {
  switch (settled.status) {
    case 'succeeded':
      return { ...serializePaymentMethod(settled.row), status: 'succeeded' };
    case 'requires_action':
      return { ...serializePaymentMethod(settled.row), status: 'requires_action', client_secret: settled.clientSecret };
    case 'failed':
      throw new PaymentMethodRefused(settled.message);
    case 'interrupted':
      throw new PaymentMethodNotConfirmed();
  }
}

/** `POST /v1/customer-portal/customers/me/payment-methods` (no request transaction). */
export async function addPaymentMethod(
  base: Context,
  input: CustomerPaymentMethodCreateInput,
): Promise<CustomerPaymentMethodCreateResponseWire> {
  const run = base.transactions ?? runIn(base);
  const processor = processorOf(base);
  const begun = await run.transaction(async (tx) => {
    const { customer, ctx } = await sessionCustomer(tx);
    const id = randomUUID();
    const row = await insertMethod(ctx.db, {
      id,
      created_at: ctx.clock.now(),
      organization_id: customer.organization_id,
      customer_id: customer.id,
      processor: processor.name,
      status: 'pending',
      idempotency_key: `payment-method:${id}`,
      type: 'card',
      set_default: input.set_default,
    });
    return { row, customer };
  });
  const returnUrl = new URL(safeReturnUrl(base.config.baseUrl, input.return_url));
  // A redirecting method comes back with the method's id, for the page to confirm it.
  returnUrl.searchParams.set('payment_method_id', begun.row.id);
  const outcome = await askProcessor(
    base,
    () =>
      processor.setupPaymentMethod({
        confirmationTokenId: input.confirmation_token_id,
        customer: processorCustomer(begun.customer),
        idempotencyKey: begun.row.idempotency_key,
        returnUrl: returnUrl.toString(),
        metadata: { customer_id: begun.customer.id, organization_id: begun.customer.organization_id },
      }),
    begun.row.id,
  );
  return answer(await settle(base, run, begun.row.id, outcome));
}

/**
 * `POST …/payment-methods/{id}/confirm`: after the customer's authentication (or a redirect back), the
 * processor is asked how the setup stands and the outcome recorded. A method already saved answers as
 * it is.
 */
export async function confirmPaymentMethod(
  base: Context,
  id: string,
): Promise<CustomerPaymentMethodCreateResponseWire> {
  const run = base.transactions ?? runIn(base);
  const found = await run.transaction(async (tx) => {
    const { customer } = await sessionCustomer(tx);
    const method = await findOwnedMethod(tx.db, tx.subject, id);
    if (!method) throw new ResourceNotFound();
    return { method, customer };
  });
  const { method, customer } = found;
  if (method.status === 'active') return { ...serializePaymentMethod(method), status: 'succeeded' };
  if (method.status === 'failed') throw new PaymentMethodRefused(null);
  const processor = processorOf(base);
  const setupId = method.processor_setup_id;
  const outcome = await askProcessor(
    base,
    async (): Promise<SetupOutcome> => {
      if (!setupId) return { status: 'interrupted' };
      const found = await processor.retrievePaymentMethodSetup({
        processorSetupId: setupId,
        customer: processorCustomer(customer),
      });
      return found.status === 'not_found' ? { status: 'interrupted' } : found;
    },
    method.id,
  );
  return answer(await settle(base, run, method.id, outcome));
}

/** `POST …/payment-methods/{id}/default`: the method bills the customer's subscriptions from now on. */
export async function setDefaultPaymentMethod(base: Context, id: string): Promise<PaymentMethodWire> {
  const { customer, ctx } = await sessionCustomer(base);
  await lockCustomerPaymentMethods(ctx.db, customer.id);
  const method = await findOwnedMethod(ctx.db, ctx.subject, id, true);
  if (!method || method.status !== 'active') throw new ResourceNotFound();
  if (!method.is_default) await makeDefault(ctx, method);
  return serializePaymentMethod((await lockMethod(ctx.db, id))!);
}

/**
 * `DELETE …/payment-methods/{id}`. Under the customer's payment-method lock (two removals at once cannot both
 * leave a subscription without a method): refused with the reference's 400 when it is the last method
 * billing a subscription; otherwise removed, the default handed to another method (the subscriptions
 * follow), committed; then the processor detaches it with no transaction open. A crash before the
 * detach leaves a method at the processor that Tessera never charges again.
 */
export async function deletePaymentMethod(base: Context, id: string): Promise<void> {
  const run = base.transactions ?? runIn(base);
  const removed = await run.transaction(async (tx) => {
    const { customer, ctx } = await sessionCustomer(tx);
    await lockCustomerPaymentMethods(ctx.db, customer.id);
    const method = await findOwnedMethod(ctx.db, ctx.subject, id, true);
    if (!method) throw new ResourceNotFound();
    const now = ctx.clock.now();
    if (method.status === 'active') {
      const methods = await findActiveMethodsOfCustomer(ctx.db, customer.id);
      const bills = (await countSubscriptionsBilledBy(ctx.db, customer.id, method.processor_payment_method_id!)) > 0;
      const plan = planRemoval(
        { id: method.id, isDefault: method.is_default },
        methods.map((candidate) => ({ id: candidate.id, isDefault: candidate.is_default })),
        bills,
      );
      if (plan.refused) throw new BadRequest(STILL_NEEDED);
      await updateMethod(ctx.db, method.id, {
        status: 'removed',
        is_default: false,
        removed_at: now,
        modified_at: now,
      });
      const next = methods.find((candidate) => candidate.id === plan.nextDefault);
      if (next && (method.is_default || bills)) await makeDefault(ctx, next);
    } else {
      await updateMethod(ctx.db, method.id, { status: 'removed', removed_at: now, modified_at: now });
    }
    return { method, customer };
  });
  const paymentMethodId = removed.method.processor_payment_method_id;
  if (!paymentMethodId || !base.payments || base.payments instanceof UnavailablePaymentProcessor) return;
  try {
    await base.payments.detachPaymentMethod({ paymentMethodId, customer: processorCustomer(removed.customer) });
  } catch (error) {
    base.log.warn(
      { paymentMethodId: removed.method.id, error: error instanceof Error ? error.name : 'unknown' },
      'payment method removed but not detached at the processor',
    );
  }
}
