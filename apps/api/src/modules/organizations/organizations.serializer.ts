import { iso } from '../../platform/http/schemas.js';
import { customerEmailSettings } from '../../platform/mail/settings.js';
import type { OrganizationRow } from './organizations.repository.js';
import type { z } from 'zod/v4';
import { brandingSettings, type Organization } from './organizations.schemas.js';

export type OrganizationWire = z.input<typeof Organization>;

export function serializeOrganization(row: OrganizationRow): OrganizationWire {
  const features = (row.feature_settings ?? {}) as Record<string, boolean>;
  const subscription = row.subscription_settings as Omit<
    OrganizationWire['subscription_settings'],
    'benefit_revocation_grace_period' | 'prevent_trial_abuse'
  >;
  const pricesIncludeTax = (row.tax_settings as { prices_include_tax?: boolean } | null)?.prices_include_tax === true;
  return {
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    name: row.name,
    slug: row.slug,
    avatar_url: row.avatar_url,
    email: row.email,
    website: row.website,
    socials: row.socials as OrganizationWire['socials'],
    details_submitted_at: iso(row.details_submitted_at),
    feature_settings: {
      issue_funding_enabled: features.issue_funding_enabled ?? false,
      usage_based_billing_enabled: features.usage_based_billing_enabled ?? false,
    },
    subscription_settings: { ...subscription, benefit_revocation_grace_period: 0, prevent_trial_abuse: false },
    customer_email_settings: customerEmailSettings(row.customer_email_settings),
    branding_settings: brandingSettings(row.branding_settings),
    proration_behavior: subscription.proration_behavior,
    allow_customer_updates: subscription.allow_customer_updates,
    status: 'active',
    sso_enforced: false,
    default_presentment_currency: 'usd',
    default_tax_behavior: pricesIncludeTax ? 'inclusive' : 'exclusive',
    customer_portal_settings: {
      usage: { show: true },
      subscription: { update_seats: false, update_plan: subscription.allow_customer_updates },
      customer: { allow_email_change: false },
    },
    account_id: null,
    payout_account_id: null,
    capabilities: {
      checkout_payments: true,
      subscription_renewals: true,
      payouts: false,
      refunds: true,
      api_access: true,
      dashboard_access: true,
    },
  };
}
