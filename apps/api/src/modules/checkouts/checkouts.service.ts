import { onOrganizationClock } from '../../platform/test-clock.js';
import type { Context } from '../../platform/context.js';
import { recordWebhookEvent } from '../../platform/events.js';
import { IssueCollector, ResourceNotFound } from '../../platform/http/errors.js';
import { pageOf } from '../../platform/http/query.js';
import { applyChanges, draftChanges, finalizeDraft, type Draft } from './checkouts.changes.js';
import { ExpiredCheckoutError, NotOpenCheckout } from './checkouts.errors.js';
import {
  findCheckoutByClientSecret,
  findUnsettledAttemptStatus,
  findVisibleCheckout,
  listVisibleCheckouts,
  lockVisibleCheckout,
  updateCheckoutRow,
  type CheckoutRow,
} from './checkouts.repository.js';
import type { CheckoutListParams, CheckoutUpdateInput, CheckoutUpdatePublicInput } from './checkouts.schemas.js';
import {
  serializeCheckout,
  serializeCheckoutPublic,
  type CheckoutPublicWire,
  type CheckoutWire,
} from './checkouts.serializer.js';
import { isTrialRedeemed, loadCheckoutState, loadCheckoutStates, type CheckoutState } from './checkouts.state.js';

export async function getCheckout(ctx: Context, id: string): Promise<CheckoutWire> {
  const row = await findVisibleCheckout(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return serializeCheckout(ctx.config, await loadCheckoutState(ctx.db, row));
}

export async function listCheckouts(ctx: Context, params: CheckoutListParams) {
  const { rows, total } = await listVisibleCheckouts(ctx.db, ctx.subject, params);
  const states = await loadCheckoutStates(ctx.db, rows);
  return pageOf(
    states.map((state) => serializeCheckout(ctx.config, state)),
    total,
    params,
  );
}

/** Updates and confirm need an open checkout; an open one past its expiry counts as expired. */
export function assertOpen(ctx: Context, row: CheckoutRow): void {
  const status = row.status === 'open' && row.expires_at <= ctx.clock.now() ? 'expired' : row.status;
  if (status !== 'open') throw new NotOpenCheckout(row.id, status);
}

/**
 * A checkout by its client secret, for the buyer: unknown → 404; past `expires_at` by the app clock →
 * 410 whatever its status (as the reference). `lock` takes the row lock for updates and confirm.
 */
export async function findPublicCheckout(
  base: Context,
  clientSecret: string,
  lock: boolean,
): Promise<{ row: CheckoutRow; ctx: Context }> {
  const row = await findCheckoutByClientSecret(base.db, clientSecret, lock);
  if (!row) throw new ResourceNotFound();
  // The buyer acts for the seller's organization: its (test) clock decides expiry and timestamps.
  const ctx = await onOrganizationClock(base, row.organization_id);
  if (row.expires_at < ctx.clock.now()) throw new ExpiredCheckoutError();
  return { row, ctx };
}

/** A mutable copy of the state (rules rewrite `row`). */
export function draftOf(state: CheckoutState): Draft {
  return { ...state, row: { ...state.row } };
}

/**
 * Writes the draft (its status included), records `checkout.updated` and returns the new state: the
 * row as written, with the draft's products, price, discount and organization (what it was built from).
 */
export async function saveDraft(ctx: Context, draft: Draft): Promise<CheckoutState> {
  const row = await updateCheckoutRow(ctx.db, draft.row.id, draftChanges(draft, ctx.clock.now()));
  const state: CheckoutState = { ...draft, row, trialRedeemed: false };
  state.trialRedeemed = await isTrialRedeemed(ctx.db, state);
  await recordWebhookEvent(ctx, state.row.organization_id, 'checkout.updated', serializeCheckout(ctx.config, state));
  return state;
}

async function update(
  ctx: Context,
  row: CheckoutRow,
  input: CheckoutUpdateInput | CheckoutUpdatePublicInput,
  mode: 'seller' | 'public',
): Promise<CheckoutState> {
  assertOpen(ctx, row);
  const draft = draftOf(await loadCheckoutState(ctx.db, row));
  const issues = new IssueCollector();
  await applyChanges(ctx, draft, input, mode, issues);
  issues.throwIfAny();
  // Tax failures are kept quiet until confirm, as the reference does.
  await finalizeDraft(ctx, draft);
  return saveDraft(ctx, draft);
}

export async function updateCheckout(ctx: Context, id: string, input: CheckoutUpdateInput): Promise<CheckoutWire> {
  const row = await lockVisibleCheckout(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  // A user (not an organization token) acts on the server's clock; the checkout lives on its organization's.
  const own = await onOrganizationClock(ctx, row.organization_id);
  return serializeCheckout(own.config, await update(own, row, input, 'seller'));
}

/**
 * The buyer's checkout. A confirmed one whose payment waits for the buyer's authentication or for the
 * bank says so in `payment_processor_metadata.intent_status` (`requires_action`, `processing`), so a
 * page opened again can finish it; the client secret of the authentication is only in confirm's answer.
 */
export async function clientGetCheckout(base: Context, clientSecret: string): Promise<CheckoutPublicWire> {
  const { row, ctx } = await findPublicCheckout(base, clientSecret, false);
  const wire = serializeCheckoutPublic(ctx.config, await loadCheckoutState(ctx.db, row));
  if (row.status !== 'confirmed') return wire;
  const waiting = await findUnsettledAttemptStatus(ctx.db, row.id);
  if (waiting !== 'requires_action' && waiting !== 'processing') return wire;
  return { ...wire, payment_processor_metadata: { ...wire.payment_processor_metadata, intent_status: waiting } };
}

export async function clientUpdateCheckout(
  base: Context,
  clientSecret: string,
  input: CheckoutUpdatePublicInput,
): Promise<CheckoutPublicWire> {
  const { row, ctx } = await findPublicCheckout(base, clientSecret, true);
  return serializeCheckoutPublic(ctx.config, await update(ctx, row, input, 'public'));
}
