import type { Context } from '../../platform/context.js';
import type { TaxId } from '../../platform/http/tax-ids.js';
import { runIn } from '../../platform/jobs/queue.js';
import { stripeTaxAvailable, stripeTaxCalculatorFor } from '../../platform/stripe-tax.js';
import type { TaxDetails } from '../../platform/tax.js';
import { addressOf, type Draft } from './checkouts.changes.js';
import { taxQuestion } from './checkouts.rules.js';
import { confirmCheckout, type CheckoutPublicConfirmedWire } from './checkouts.confirm.js';
import {
  CheckoutUpdatePublic,
  type CheckoutConfirmInput,
  type CheckoutCreateInput,
  type CheckoutUpdateInput,
  type CheckoutUpdatePublicInput,
} from './checkouts.schemas.js';
import { serializeCheckout, type CheckoutPublicWire, type CheckoutWire } from './checkouts.serializer.js';
import {
  clientGetCheckout,
  clientUpdateCheckout,
  draftOf,
  findPublicCheckout,
  getCheckout,
  saveDraft,
  updateCheckout,
} from './checkouts.service.js';
import { insertNewCheckout, prepareCheckout } from './checkouts.create.js';
import { loadCheckoutState } from './checkouts.state.js';

/**
 * Stripe Tax at checkout, for an organization that opted in (docs/tax.md). Stripe is a network call, so
 * it is never made inside a transaction: (1) the update is committed (its tax pending), and the
 * question is read; (2) Stripe is asked with no transaction open; (3) the answer is recorded under the
 * checkout's lock only if the question is still the same (a later update asks again). Confirm runs the
 * same steps first, so the tax it charges is Stripe's for the address it confirms; once the order is
 * paid, its calculation becomes a Stripe tax transaction (`tax-settings.stripe-transactions.ts`).
 */
const subjectOf = (draft: Draft) => ({
  amount: draft.row.amount,
  currency: draft.row.currency,
  discount: draft.discount,
  product: draft.product,
  price: draft.price,
  address: addressOf(draft),
  taxId: (draft.row.customer_tax_id ?? null) as TaxId | null,
});

export async function settleExternalTax(base: Context, clientSecret: string): Promise<boolean> {
  if (!stripeTaxAvailable(base.config)) return false;
  const run = base.transactions ?? runIn(base);
  const pending = await run.transaction(async (tx) => {
    const { row, ctx } = await findPublicCheckout({ ...tx, log: base.log }, clientSecret, false);
    if (row.status !== 'open') return null;
    const draft = draftOf(await loadCheckoutState(ctx.db, row));
    const question = await taxQuestion(ctx, subjectOf(draft));
    if (!question?.stripeTax || !question.input.country) return null;
    const current = draft.row.tax_details as TaxDetails | null;
    if (current?.fingerprint === question.fingerprint && draft.row.tax_amount !== null) return null;
    return question;
  });
  if (!pending) return false;
  const calculator = stripeTaxCalculatorFor(base.config, pending.inclusive);
  if (!calculator) return false;
  const result = await calculator.calculate(pending.input);
  if (result.status !== 'calculated') {
    // Pending stays pending: confirm refuses it at the billing address with the reason.
    base.log.warn({ tax: result }, 'Stripe Tax gave no answer for a checkout');
    return false;
  }
  return run.transaction(async (tx) => {
    const { row, ctx } = await findPublicCheckout({ ...tx, log: base.log }, clientSecret, true);
    if (row.status !== 'open') return false;
    const draft = draftOf(await loadCheckoutState(ctx.db, row));
    const question = await taxQuestion(ctx, subjectOf(draft));
    // Changed meanwhile: the update that changed it asks again.
    if (question?.fingerprint !== pending.fingerprint) return false;
    draft.row.tax_amount = result.amount;
    draft.row.tax_details = { ...(result.details as TaxDetails), fingerprint: pending.fingerprint };
    await saveDraft(ctx, draft);
    return true;
  });
}

/** The buyer's update, committed, then Stripe Tax asked (when the organization uses it) for its tax. */
export async function clientUpdateCheckoutWithTax(
  base: Context,
  clientSecret: string,
  input: CheckoutUpdatePublicInput,
): Promise<CheckoutPublicWire> {
  const run = base.transactions ?? runIn(base);
  const updated = await run.transaction((tx) =>
    clientUpdateCheckout({ ...tx, log: base.log, request: base.request }, clientSecret, input),
  );
  if (!(await settleExternalTax(base, clientSecret))) return updated;
  return clientGetCheckout(base, clientSecret);
}

/**
 * The seller's create and update (`POST`, `PATCH /v1/checkouts/`), committed, then Stripe Tax asked
 * (when the organization uses it) for the billing address they set, as for the buyer's update.
 */
export async function createCheckoutWithTax(base: Context, input: CheckoutCreateInput): Promise<CheckoutWire> {
  const run = base.transactions ?? runIn(base);
  // The reads and checks need no transaction: the transaction only writes the checkout.
  const prepared = await prepareCheckout(base, input);
  const created = serializeCheckout(
    base.config,
    await run.transaction((tx) => insertNewCheckout({ ...tx, log: base.log, request: base.request }, prepared)),
  );
  if (!(await settleExternalTax(base, created.client_secret))) return created;
  return run.transaction((tx) => getCheckout(tx, created.id));
}

export async function updateCheckoutWithTax(
  base: Context,
  id: string,
  input: CheckoutUpdateInput,
): Promise<CheckoutWire> {
  const run = base.transactions ?? runIn(base);
  const updated = await run.transaction((tx) =>
    updateCheckout({ ...tx, log: base.log, request: base.request }, id, input),
  );
  if (!(await settleExternalTax(base, updated.client_secret))) return updated;
  return run.transaction((tx) => getCheckout(tx, id));
}

/**
 * Confirm, with Stripe Tax asked first (when the organization uses it) for what the buyer confirms: the
 * body's fields are applied as an update, Stripe answers, then confirm charges that tax.
 */
export async function confirmCheckoutWithTax(
  base: Context,
  clientSecret: string,
  input: CheckoutConfirmInput,
): Promise<CheckoutPublicConfirmedWire> {
  if (stripeTaxAvailable(base.config)) {
    const run = base.transactions ?? runIn(base);
    const update = CheckoutUpdatePublic.safeParse(input);
    if (update.success) {
      // A refused update is confirm's to report (one 422 with every problem).
      await run
        .transaction((tx) =>
          clientUpdateCheckout({ ...tx, log: base.log, request: base.request }, clientSecret, update.data),
        )
        .catch(() => undefined);
    }
    await settleExternalTax(base, clientSecret);
  }
  // A paid order's calculation becomes a Stripe tax transaction after commit, however it was paid
  // (`tax-settings.stripe-transactions.ts`).
  return confirmCheckout(base, clientSecret, input);
}
