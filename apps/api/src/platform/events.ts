import { randomUUID } from 'node:crypto';
import type { Context } from './context.js';

/** The 27 webhook event types of spec document 2 §5. */
export const WEBHOOK_EVENT_TYPES = [
  'checkout.created',
  'checkout.updated',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'customer.state_changed',
  'order.created',
  'order.updated',
  'order.paid',
  'order.refunded',
  'subscription.created',
  'subscription.updated',
  'subscription.active',
  'subscription.canceled',
  'subscription.uncanceled',
  'subscription.revoked',
  'refund.created',
  'refund.updated',
  'product.created',
  'product.updated',
  'benefit.created',
  'benefit.updated',
  'benefit_grant.created',
  'benefit_grant.cycled',
  'benefit_grant.updated',
  'benefit_grant.revoked',
  'organization.updated',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * Records a webhook event in the caller's transaction, with `data` serialized exactly as the API
 * serializes the resource. It exists if and only if the change that caused it commits.
 */
export async function recordWebhookEvent(
  ctx: Context,
  organizationId: string,
  type: WebhookEventType,
  data: unknown,
): Promise<string> {
  const id = randomUUID();
  await ctx.db
    .insertInto('webhook_events')
    .values({
      id,
      created_at: ctx.clock.now(),
      organization_id: organizationId,
      type,
      payload: JSON.stringify({ type, data }),
    })
    .execute();
  return id;
}
