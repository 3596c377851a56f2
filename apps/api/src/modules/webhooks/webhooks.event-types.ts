/** The 27 webhook event types of spec document 2 §5 (re-exported by platform/events.ts). */
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

/**
 * Tessera's own event types (extensions, not in the reference at the spec's version). An endpoint gets
 * one only when it subscribes to it by name, so a receiver written against the reference (whose SDK's
 * `validateEvent` refuses a type it does not know) never sees one unasked.
 */
export const EXTENSION_WEBHOOK_EVENT_TYPES = [
  // A member was removed from the organization or left it (docs/members.md).
  'organization.member_removed',
] as const;

/** Every type an endpoint may subscribe to: the reference's, then the extensions. */
export const SUBSCRIBABLE_WEBHOOK_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, ...EXTENSION_WEBHOOK_EVENT_TYPES] as const;

export type WebhookEventType = (typeof SUBSCRIBABLE_WEBHOOK_EVENT_TYPES)[number];
