import type {
  AttachedCustomField,
  CheckoutProduct,
  CheckoutPublic,
  CustomField,
  ProductPriceCustom,
  ProductPriceFixed,
  ProductPriceFree,
} from '@tessera/sdk';

/**
 * Checkouts as the API answers them, for component and logic tests. They pass the SDK's response
 * validation, so tests can serve them through a stubbed `fetch`.
 */

const NOW = '2026-01-15T12:00:00.000Z';
const ORGANIZATION_ID = '0b5e0c57-6a39-4cf6-9d8c-4c1f2bb8a001';
let sequence = 0;

/** A fresh UUID-shaped id (deterministic within a test run). */
export function fixtureId(): string {
  sequence += 1;
  return `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
}

export function fixedPrice(productId: string, amount: number, overrides: Partial<ProductPriceFixed> = {}) {
  return {
    created_at: NOW,
    modified_at: null,
    id: fixtureId(),
    is_archived: false,
    product_id: productId,
    type: 'one_time',
    recurring_interval: null,
    source: 'catalog',
    tax_behavior: null,
    amount_type: 'fixed',
    price_currency: 'usd',
    price_amount: amount,
    ...overrides,
  } satisfies ProductPriceFixed;
}

export function customPrice(productId: string, overrides: Partial<ProductPriceCustom> = {}) {
  return {
    created_at: NOW,
    modified_at: null,
    id: fixtureId(),
    is_archived: false,
    product_id: productId,
    type: 'one_time',
    recurring_interval: null,
    source: 'catalog',
    tax_behavior: null,
    amount_type: 'custom',
    price_currency: 'usd',
    minimum_amount: 500,
    maximum_amount: 10_000,
    preset_amount: 2000,
    ...overrides,
  } satisfies ProductPriceCustom;
}

export function freePrice(productId: string) {
  return {
    created_at: NOW,
    modified_at: null,
    id: fixtureId(),
    is_archived: false,
    product_id: productId,
    type: 'one_time',
    recurring_interval: null,
    source: 'catalog',
    tax_behavior: null,
    amount_type: 'free',
  } satisfies ProductPriceFree;
}

export function product(
  name: string,
  prices: (id: string) => CheckoutProduct['prices'],
  overrides: Partial<CheckoutProduct> = {},
): CheckoutProduct {
  const id = fixtureId();
  return {
    created_at: NOW,
    modified_at: null,
    id,
    name,
    description: null,
    recurring_interval: null,
    recurring_interval_count: null,
    meter_interval: null,
    meter_interval_count: null,
    visibility: 'public',
    is_recurring: false,
    is_archived: false,
    organization_id: ORGANIZATION_ID,
    prices: prices(id),
    benefits: [],
    medias: [],
    ...overrides,
  };
}

export function attachedField(
  field: Omit<CustomField, 'created_at' | 'modified_at' | 'id' | 'metadata' | 'organization_id'>,
  required: boolean,
  order = 0,
): AttachedCustomField {
  const id = fixtureId();
  return {
    custom_field_id: id,
    custom_field: {
      created_at: NOW,
      modified_at: null,
      id,
      metadata: {},
      organization_id: ORGANIZATION_ID,
      ...field,
    } as CustomField,
    order,
    required,
  };
}

/** A checkout of one $25 one-time product, open, with nothing filled in yet. */
export function checkoutFixture(overrides: Partial<CheckoutPublic> = {}): CheckoutPublic {
  const selected = overrides.product ?? product('Pro license', (id) => [fixedPrice(id, 2500)]);
  const price = overrides.product_price ?? selected.prices[0]!;
  const secret = overrides.client_secret ?? 'polar_c_fixture';
  const amount = overrides.amount ?? (price.amount_type === 'fixed' ? price.price_amount : 0);
  return {
    created_at: NOW,
    modified_at: null,
    id: fixtureId(),
    custom_field_data: {},
    payment_processor: 'stripe',
    status: 'open',
    client_secret: secret,
    url: `http://localhost:3000/checkout/${secret}`,
    expires_at: '2026-01-16T12:00:00.000Z',
    success_url: `http://localhost:3000/checkout/${secret}/confirmation`,
    embed_origin: null,
    amount,
    discount_amount: 0,
    net_amount: amount,
    tax_amount: null,
    total_amount: amount,
    currency: 'usd',
    product_id: selected.id,
    product_price_id: price.id,
    discount_id: null,
    allow_discount_codes: true,
    require_billing_address: false,
    is_discount_applicable: true,
    is_free_product_price: false,
    is_payment_required: amount > 0,
    is_payment_setup_required: false,
    is_payment_form_required: amount > 0,
    customer_id: null,
    is_business_customer: false,
    customer_name: null,
    customer_email: null,
    customer_ip_address: null,
    customer_billing_name: null,
    customer_billing_address: null,
    customer_tax_id: null,
    payment_processor_metadata: {},
    customer_billing_address_fields: {
      country: true,
      state: false,
      city: false,
      postal_code: false,
      line1: false,
      line2: false,
    },
    products: [selected],
    product: selected,
    product_price: price,
    discount: null,
    attached_custom_fields: [],
    organization: {
      created_at: NOW,
      modified_at: null,
      id: ORGANIZATION_ID,
      name: 'Acme Software',
      slug: 'acme-software',
      avatar_url: null,
      email: null,
      website: null,
      socials: [],
      details_submitted_at: null,
      feature_settings: null,
      subscription_settings: {
        allow_multiple_subscriptions: false,
        allow_customer_updates: true,
        proration_behavior: 'prorate',
        benefit_revocation_grace_period: 0,
        prevent_trial_abuse: false,
      },
      customer_email_settings: {
        order_confirmation: true,
        subscription_cycled: true,
        subscription_past_due: true,
        subscription_cancellation: true,
        subscription_revoked: true,
        order_refunded: true,
        subscription_confirmation: true,
        subscription_cycled_after_trial: true,
        subscription_paused: true,
        subscription_resumed: true,
        subscription_renewal_reminder: true,
        subscription_trial_conversion_reminder: true,
        subscription_uncanceled: true,
        subscription_updated: true,
      },
      branding_settings: { brand_color: null, theme: 'light', show_logo: true, show_product_images: true },
      proration_behavior: 'prorate',
      allow_customer_updates: true,
      status: 'active',
      sso_enforced: false,
      default_presentment_currency: 'usd',
      default_tax_behavior: 'exclusive',
      customer_portal_settings: {
        usage: { show: true },
        subscription: { update_seats: false, update_plan: true },
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
    },
    trial_interval: null,
    trial_interval_count: null,
    active_trial_interval: null,
    active_trial_interval_count: null,
    trial_unavailable_reason: null,
    ...overrides,
  };
}
