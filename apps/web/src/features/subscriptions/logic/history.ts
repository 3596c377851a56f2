import type { SubscriptionChange } from '@tessera/sdk';
import { formatDate, formatMoney } from '../../../lib/format';

const TITLES: Record<SubscriptionChange['kind'], string> = {
  created: 'Started',
  trial_started: 'Trial started',
  trial_converted: 'Trial converted to paid',
  product_changed: 'Plan changed',
  discount_changed: 'Discount changed',
  canceled: 'Canceled',
  uncanceled: 'Cancellation withdrawn',
  revoked: 'Revoked',
  ended: 'Ended',
  past_due: 'Renewal payment failed (past due)',
  recovered: 'Renewal payment recovered',
};

const CAUSES: Record<string, string> = {
  revoked: 'revoked now',
  period_end: 'at the end of its period',
  trial_unpaid: 'trial ended without a card',
  payment_failed: 'renewal payment retries exhausted',
  customer_deleted: 'the customer was deleted',
};

const ACTORS = { seller: 'by the seller', customer: 'by the customer', system: 'automatically' } as const;

const humanize = (text: string) => (text.charAt(0).toUpperCase() + text.slice(1)).replace(/_/g, ' ');
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/** One change in words: a title, then who made it and what changed. */
export function describeSubscriptionChange(change: SubscriptionChange): { title: string; detail: string } {
  const d = change.details as Record<string, unknown>;
  const parts: string[] = [ACTORS[change.actor]];
  const currency = text(d.currency);
  if (change.kind === 'product_changed' && currency && typeof d.amount === 'number') {
    const before = typeof d.previous_amount === 'number' ? `${formatMoney(d.previous_amount, currency)} → ` : '';
    parts.push(`${before}${formatMoney(d.amount, currency)} per ${text(d.recurring_interval) ?? 'period'}`);
  }
  if (change.kind === 'discount_changed') parts.push(d.discount_id ? 'discount applied' : 'discount removed');
  if (change.kind === 'canceled' && text(d.ends_at)) parts.push(`ends ${formatDate(text(d.ends_at))}`);
  if ((change.kind === 'ended' || change.kind === 'revoked') && text(d.cause))
    parts.push(CAUSES[d.cause as string] ?? '');
  if (change.kind === 'trial_started' && text(d.trial_end)) parts.push(`until ${formatDate(text(d.trial_end))}`);
  if (change.kind === 'past_due' && text(d.decline_message)) parts.push(text(d.decline_message)!);
  if (text(d.reason)) parts.push(`reason: ${humanize(text(d.reason)!)}`);
  if (text(d.comment)) parts.push(`“${text(d.comment)}”`);
  return { title: TITLES[change.kind], detail: parts.filter(Boolean).join(' · ') };
}
