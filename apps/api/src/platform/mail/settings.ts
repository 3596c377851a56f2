import type { TemplateName } from './templates.js';

/**
 * The customer emails a seller can turn off, as the keys of the organization's `customer_email_settings`
 * (the reference's names where it has one, `order_refunded` our own). Every key defaults to on; a
 * template without a key (the portal sign-in code, notices to the seller) is always sent.
 */
export const SENT_EMAIL_SETTING_KEYS = [
  'order_confirmation',
  'subscription_cycled',
  'subscription_past_due',
  'subscription_cancellation',
  'subscription_revoked',
  'order_refunded',
] as const;

/**
 * The reference's other keys (2026), for emails Tessera does not send: kept and answered so that a
 * client reading or writing the reference's settings round-trips them, and deciding nothing.
 */
export const UNSENT_EMAIL_SETTING_KEYS = [
  'subscription_confirmation',
  'subscription_cycled_after_trial',
  'subscription_paused',
  'subscription_resumed',
  'subscription_renewal_reminder',
  'subscription_trial_conversion_reminder',
  'subscription_uncanceled',
  'subscription_updated',
] as const;

export const CUSTOMER_EMAIL_SETTING_KEYS = [...SENT_EMAIL_SETTING_KEYS, ...UNSENT_EMAIL_SETTING_KEYS] as const;

export type CustomerEmailSettingKey = (typeof CUSTOMER_EMAIL_SETTING_KEYS)[number];
export type CustomerEmailSettings = Record<CustomerEmailSettingKey, boolean>;

export const TEMPLATE_SETTING: Partial<Record<TemplateName, CustomerEmailSettingKey>> = {
  order_receipt: 'order_confirmation',
  subscription_renewal_receipt: 'subscription_cycled',
  payment_failed: 'subscription_past_due',
  payment_recovered: 'subscription_past_due',
  subscription_canceled: 'subscription_cancellation',
  subscription_ended: 'subscription_revoked',
  refund_issued: 'order_refunded',
};

/** The stored settings (possibly partial, possibly not an object) with every key filled in. Pure. */
export function customerEmailSettings(stored: unknown): CustomerEmailSettings {
  const raw = (typeof stored === 'object' && stored !== null ? stored : {}) as Record<string, unknown>;
  return Object.fromEntries(
    CUSTOMER_EMAIL_SETTING_KEYS.map((key) => [key, raw[key] === false ? false : true]),
  ) as CustomerEmailSettings;
}

/** Whether the organization sends this template. Pure. */
export function templateEnabled(template: TemplateName, stored: unknown): boolean {
  const key = TEMPLATE_SETTING[template];
  return key === undefined || customerEmailSettings(stored)[key];
}
