import { z } from 'zod/v4';
import { paginationQuery, queryString, sortingQuery } from '../../platform/http/query.js';
import { DateTime, ListResource } from '../../platform/http/schemas.js';
import { CUSTOMER_EMAIL_SETTING_KEYS, type CustomerEmailSettingKey } from '../../platform/mail/settings.js';

export const SOCIAL_PLATFORMS = [
  'x',
  'github',
  'facebook',
  'instagram',
  'youtube',
  'tiktok',
  'linkedin',
  'other',
] as const;

export const OrganizationSocialLink = z
  .object({ platform: z.enum(SOCIAL_PLATFORMS), url: z.url({ protocol: /^https?$/ }) })
  .meta({ id: 'OrganizationSocialLink' });

export const OrganizationFeatureSettings = z
  .object({
    issue_funding_enabled: z.boolean().default(false),
    usage_based_billing_enabled: z.boolean().default(false),
  })
  .meta({ id: 'OrganizationFeatureSettings' });

/** In updates, feature settings merge: only the keys sent change, so no defaults apply. */
const OrganizationFeatureSettingsPatch = z
  .object({ issue_funding_enabled: z.boolean().optional(), usage_based_billing_enabled: z.boolean().optional() })
  .meta({ id: 'OrganizationFeatureSettingsUpdate' });

const subscriptionSettingsFields = {
  allow_multiple_subscriptions: z.boolean(),
  allow_customer_updates: z.boolean(),
  proration_behavior: z.enum(['invoice', 'prorate']),
};

/**
 * The reference's subscription settings Tessera has one answer for (2026): benefits are revoked when a
 * subscription ends, with no grace period, and trials are limited per product (`trial_once_per_customer`),
 * not by the organization. A write may send those answers and no others (422).
 */
const fixedSubscriptionSettings = {
  benefit_revocation_grace_period: z.int().meta({
    description: 'Days benefits are kept after a subscription ends (2026): 0, they are revoked when it ends.',
  }),
  prevent_trial_abuse: z.boolean().meta({
    description:
      "Whether the organization refuses repeated trials (2026): false, each product's trial_once_per_customer decides.",
  }),
};

export const OrganizationSubscriptionSettings = z
  .object({ ...subscriptionSettingsFields, ...fixedSubscriptionSettings })
  .meta({ id: 'OrganizationSubscriptionSettings' });

/** The settings as written: the three Tessera keeps, and the reference's fixed ones at their only value. */
const OrganizationSubscriptionSettingsInput = z
  .object({
    ...subscriptionSettingsFields,
    benefit_revocation_grace_period: z
      .literal(0, 'Benefits are revoked when a subscription ends: the grace period can only be 0.')
      .optional(),
    prevent_trial_abuse: z
      .literal(false, 'Trials are limited per product (trial_once_per_customer): this can only be false.')
      .optional(),
  })
  .transform(({ benefit_revocation_grace_period: _days, prevent_trial_abuse: _abuse, ...kept }) => kept)
  .meta({ id: 'OrganizationSubscriptionSettingsInput' });

/** The reference's customer portal settings (2026), from what Tessera's portal offers. */
export const OrganizationCustomerPortalSettings = z
  .object({
    usage: z.object({ show: z.boolean() }).meta({ id: 'CustomerPortalUsageSettings' }),
    subscription: z
      .object({ update_seats: z.boolean(), update_plan: z.boolean() })
      .meta({ id: 'CustomerPortalSubscriptionSettings' }),
    customer: z.object({ allow_email_change: z.boolean() }).meta({ id: 'CustomerPortalCustomerSettings' }),
  })
  .meta({
    id: 'OrganizationCustomerPortalSettings',
    description:
      'What the customer portal offers: usage is always shown, a plan change when subscription_settings ' +
      'allow_customer_updates is on; there are no seats and no email change.',
  });

/** The reference's capabilities (2026): Tessera has no payouts, everything else is on. */
export const OrganizationCapabilities = z
  .object({
    checkout_payments: z.boolean(),
    subscription_renewals: z.boolean(),
    payouts: z.boolean(),
    refunds: z.boolean(),
    api_access: z.boolean(),
    dashboard_access: z.boolean(),
  })
  .meta({ id: 'OrganizationCapabilities' });

/**
 * Extension: which customer emails the organization sends (platform/mail). Later versions of the
 * reference have a `customer_email_settings` object on the organization; the keys are ours where the
 * emails are (`order_refunded`). Every key defaults to true.
 */
export const OrganizationCustomerEmailSettings = z
  .object(Object.fromEntries(CUSTOMER_EMAIL_SETTING_KEYS.map((key) => [key, z.boolean()])) as CustomerEmailShape)
  .meta({
    id: 'OrganizationCustomerEmailSettings',
    description:
      'Extension: the customer emails the organization sends. order_confirmation: the receipt of a paid order; ' +
      'subscription_cycled: the receipt of a renewal; subscription_past_due: a renewal payment failed (and ' +
      'later went through); subscription_cancellation: a subscription was canceled; subscription_revoked: ' +
      'a subscription ended; order_refunded: a refund was issued. The portal sign-in code is always sent.',
  });

/** In updates the settings merge: only the keys sent change. */
const OrganizationCustomerEmailSettingsPatch = z
  .object(
    Object.fromEntries(
      CUSTOMER_EMAIL_SETTING_KEYS.map((key) => [key, z.boolean().optional()]),
    ) as CustomerEmailPatchShape,
  )
  .meta({ id: 'OrganizationCustomerEmailSettingsUpdate' });

/**
 * Extension: how the hosted checkout and the customer portal look (docs/branding.md). The reference has
 * no such object at this version, so the name is ours. `brand_color` colours buttons and links (null:
 * Tessera's blue); the web app darkens or lightens it where its text would fall below WCAG AA contrast.
 */
export const BRANDING_THEMES = ['light', 'dark'] as const;
const brandColor = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Brand colour must be a hex colour like #1d4ed8')
  .transform((color) => color.toLowerCase());

export const OrganizationBrandingSettings = z
  .object({
    brand_color: z.string().nullable(),
    theme: z.enum(BRANDING_THEMES),
    show_logo: z.boolean(),
    show_product_images: z.boolean(),
  })
  .meta({
    id: 'OrganizationBrandingSettings',
    description:
      'Extension: the branding of the hosted checkout and the customer portal. brand_color: buttons and ' +
      'links (#rrggbb, null for the default); theme: light or dark; show_logo: the organization avatar in ' +
      'the header; show_product_images: product media in the checkout.',
  });

/** In updates the settings merge: only the keys sent change. */
const OrganizationBrandingSettingsPatch = z
  .object({
    brand_color: brandColor.nullable().optional(),
    theme: z.enum(BRANDING_THEMES).optional(),
    show_logo: z.boolean().optional(),
    show_product_images: z.boolean().optional(),
  })
  .meta({ id: 'OrganizationBrandingSettingsUpdate' });

export type BrandingSettings = z.output<typeof OrganizationBrandingSettings>;

export const DEFAULT_BRANDING: BrandingSettings = {
  brand_color: null,
  theme: 'light',
  show_logo: true,
  show_product_images: true,
};

// Built once: a zod schema compiles its parser on first use, which costs more than the parse itself.
const StoredBrandingSettings = OrganizationBrandingSettings.partial();

/** The stored settings with their defaults (a key never set, or stored by an older version, takes it). */
export function brandingSettings(stored: unknown): BrandingSettings {
  const parsed = StoredBrandingSettings.safeParse(stored ?? {});
  const given = parsed.success ? parsed.data : {};
  return {
    ...DEFAULT_BRANDING,
    ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)),
  };
}

type CustomerEmailShape = Record<CustomerEmailSettingKey, z.ZodBoolean>;
type CustomerEmailPatchShape = Record<CustomerEmailSettingKey, z.ZodOptional<z.ZodBoolean>>;

export const OrganizationDetails = z
  .object({
    about: z.string().min(1).max(5000),
    product_description: z.string().min(1).max(5000),
    intended_use: z.string().min(1).max(5000),
    customer_acquisition: z.array(z.string().min(1).max(200)).max(20),
    future_annual_revenue: z.int().min(0),
    switching: z.boolean().default(true),
    switching_from: z.enum(['paddle', 'lemon_squeezy', 'gumroad', 'stripe', 'other']).nullable().optional(),
    previous_annual_revenue: z.int().min(0).default(0),
  })
  .meta({ id: 'OrganizationDetails' });

export const Organization = z
  .object({
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    avatar_url: z.string().nullable(),
    email: z.string().nullable(),
    website: z.string().nullable(),
    socials: z.array(OrganizationSocialLink),
    details_submitted_at: DateTime().nullable(),
    feature_settings: OrganizationFeatureSettings.nullable(),
    subscription_settings: OrganizationSubscriptionSettings,
    customer_email_settings: OrganizationCustomerEmailSettings,
    branding_settings: OrganizationBrandingSettings,
    // The reference's fields of 2026, each with Tessera's one answer or read from the settings above.
    proration_behavior: z
      .enum(['invoice', 'prorate'])
      .meta({ description: "subscription_settings.proration_behavior, as the reference's top-level field." }),
    allow_customer_updates: z
      .boolean()
      .meta({ description: "subscription_settings.allow_customer_updates, as the reference's top-level field." }),
    status: z
      .enum(['created', 'review', 'snoozed', 'denied', 'active', 'blocked', 'offboarding', 'offboarded'])
      .meta({ id: 'OrganizationStatus', description: 'Always active: a Tessera organization needs no review.' }),
    sso_enforced: z.boolean().meta({ description: 'False: members sign in with their own accounts.' }),
    default_presentment_currency: z.string().meta({ description: 'usd, the currency of new prices.' }),
    default_tax_behavior: z.enum(['location', 'inclusive', 'exclusive']).meta({
      id: 'TaxBehaviorOption',
      description: 'inclusive when the tax settings say prices include tax, exclusive otherwise.',
    }),
    customer_portal_settings: OrganizationCustomerPortalSettings,
    account_id: z.uuid().nullable().meta({ description: 'Null: Tessera has no payout accounts.' }),
    payout_account_id: z.uuid().nullable().meta({ description: 'Null: Tessera has no payout accounts.' }),
    capabilities: OrganizationCapabilities,
  })
  .meta({ id: 'Organization' });

export const ListResourceOrganization = ListResource(Organization, 'ListResourceOrganization');

const name = z.string().trim().min(3, 'Name must be at least 3 characters').max(200);
const url = z.url({ protocol: /^https?$/, message: 'Input should be a valid http(s) URL' }).max(2048);
const email = z.email({ message: 'Input should be a valid email address' }).max(320);

const optionalFields = {
  avatar_url: url.nullable().optional(),
  email: email.nullable().optional(),
  website: url.nullable().optional(),
  socials: z.array(OrganizationSocialLink).max(20).nullable().optional(),
  details: OrganizationDetails.nullable().optional(),
  feature_settings: OrganizationFeatureSettings.nullable().optional(),
  subscription_settings: OrganizationSubscriptionSettingsInput.nullable().optional(),
};

export const OrganizationCreate = z
  .object({
    name,
    slug: z.string().min(3, 'Slug must be at least 3 characters').max(100),
    ...optionalFields,
  })
  .meta({ id: 'OrganizationCreate' });

export const OrganizationUpdate = z
  .object({
    name: name.nullable().optional(),
    ...optionalFields,
    feature_settings: OrganizationFeatureSettingsPatch.nullable().optional(),
    customer_email_settings: OrganizationCustomerEmailSettingsPatch.nullable().optional(),
    branding_settings: OrganizationBrandingSettingsPatch.nullable().optional(),
  })
  .meta({ id: 'OrganizationUpdate' });

export type OrganizationCreateInput = z.output<typeof OrganizationCreate>;
export type OrganizationUpdateInput = z.output<typeof OrganizationUpdate>;

export const OrganizationListQuery = z.object({
  slug: queryString(),
  ...paginationQuery,
  sorting: sortingQuery(['created_at', 'slug', 'name'], ['created_at']),
});
export type OrganizationListParams = z.output<typeof OrganizationListQuery>;
