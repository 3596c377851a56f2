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
 * The reference's types since (API 2026-10) that Tessera emits, each when the reference does:
 * `checkout.expired` when the expiry job marks an open checkout expired, `subscription.cycled` when a
 * new period starts, `subscription.past_due` when a renewal payment fails, and the discounts' own.
 * An endpoint gets one only when it subscribes to it by name: SDK 0.33.2 does not know them (its
 * `validateEvent` refuses them, and it cannot read an endpoint subscribed to one).
 */
export const LATER_WEBHOOK_EVENT_TYPES = [
  'checkout.expired',
  'subscription.past_due',
  'subscription.cycled',
  'discount.created',
  'discount.updated',
  'discount.deleted',
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

/** Every type an endpoint may subscribe to: the reference's, its later ones, then the extensions. */
export const SUBSCRIBABLE_WEBHOOK_EVENT_TYPES = [
  ...WEBHOOK_EVENT_TYPES,
  ...LATER_WEBHOOK_EVENT_TYPES,
  ...EXTENSION_WEBHOOK_EVENT_TYPES,
] as const;

export type WebhookEventType = (typeof SUBSCRIBABLE_WEBHOOK_EVENT_TYPES)[number];
