import type { z } from 'zod/v4';
import type { Config } from '../../config.js';
import { serializeAddress } from '../../platform/http/countries.js';
import type { Metadata } from '../../platform/http/metadata.js';
import { iso } from '../../platform/http/schemas.js';
import type { DiscountRow } from '../discounts/discounts.repository.js';
import { serializeOrganization } from '../organizations/organizations.serializer.js';
import { serializeCustomField } from '../custom-fields/custom-fields.serializer.js';
import { serializeCheckoutLinkProduct, serializePrice, type ProductBundle } from '../products/products.serializer.js';
import { billingAddressFields } from './checkouts.amounts.js';
import type { Checkout, CheckoutDiscount, CheckoutProduct, CheckoutPublic } from './checkouts.schemas.js';
import { computeCheckout, type CheckoutState } from './checkouts.state.js';

export type CheckoutWire = z.input<typeof Checkout>;
export type CheckoutPublicWire = z.input<typeof CheckoutPublic>;
export type CheckoutProductWire = z.input<typeof CheckoutProduct>;
export type CheckoutDiscountWire = z.input<typeof CheckoutDiscount>;

/** The hosted checkout page (served by the web app). */
export function checkoutUrl(config: Pick<Config, 'baseUrl'>, clientSecret: string): string {
  return `${config.baseUrl}/checkout/${clientSecret}`;
}

/** The seller's success URL with `{CHECKOUT_ID}` replaced, or the default confirmation page. */
export function successUrl(config: Pick<Config, 'baseUrl'>, row: CheckoutState['row']): string {
  if (row.success_url) return row.success_url.replaceAll('{CHECKOUT_ID}', row.id);
  return `${checkoutUrl(config, row.client_secret)}/confirmation`;
}

export function serializeCheckoutProduct(bundle: ProductBundle): CheckoutProductWire {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { metadata, ...product } = serializeCheckoutLinkProduct(bundle);
  return product;
}

export function serializeCheckoutDiscount(row: DiscountRow): CheckoutDiscountWire {
  const base = { id: row.id, name: row.name, code: row.code };
  const amount =
    row.type === 'fixed'
      ? { type: 'fixed' as const, amount: row.amount!, currency: row.currency! }
      : { type: 'percentage' as const, basis_points: row.basis_points! };
  const duration =
    row.duration === 'repeating'
      ? { duration: 'repeating' as const, duration_in_months: row.duration_in_months! }
      : { duration: row.duration };
  return { ...base, ...amount, ...duration } as CheckoutDiscountWire;
}

/** What the checkout page needs to load the processor's card form: Stripe.js needs the publishable key. */
function processorMetadata(config: CheckoutSerializerConfig, stored: unknown): Record<string, string> {
  const metadata = { ...((stored ?? {}) as Record<string, string>) };
  if (config.stripeSecretKey && config.stripePublishableKey) metadata.publishable_key = config.stripePublishableKey;
  return metadata;
}

type CheckoutSerializerConfig = Pick<Config, 'baseUrl' | 'stripeSecretKey' | 'stripePublishableKey'>;

function serializeBase(config: CheckoutSerializerConfig, state: CheckoutState) {
  const { row } = state;
  const { amounts, flags, trial } = computeCheckout(state);
  const address = serializeAddress(row.customer_billing_address);
  const taxId = row.customer_tax_id as [string, string] | null;
  return {
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    custom_field_data: (row.custom_field_data ?? {}) as CheckoutWire['custom_field_data'],
    payment_processor: 'stripe' as const,
    status: row.status,
    client_secret: row.client_secret,
    url: checkoutUrl(config, row.client_secret),
    expires_at: iso(row.expires_at),
    success_url: successUrl(config, row),
    embed_origin: row.embed_origin,
    ...amounts,
    currency: row.currency,
    product_id: row.product_id,
    product_price_id: row.product_price_id,
    discount_id: row.discount_id,
    allow_discount_codes: row.allow_discount_codes,
    require_billing_address: row.require_billing_address,
    ...flags,
    customer_id: row.customer_id,
    is_business_customer: row.is_business_customer,
    customer_name: row.customer_name,
    customer_email: row.customer_email,
    customer_ip_address: row.customer_ip_address,
    customer_billing_name: row.customer_billing_name,
    customer_billing_address: address,
    customer_tax_id: taxId ? taxId[0] : null,
    payment_processor_metadata: processorMetadata(config, row.payment_processor_metadata),
    customer_billing_address_fields: billingAddressFields({
      requireBillingAddress: row.require_billing_address,
      isBusinessCustomer: row.is_business_customer,
      country: address?.country ?? null,
    }),
    products: state.products.map(serializeCheckoutProduct),
    product: serializeCheckoutProduct(state.product),
    product_price: serializePrice(state.price, state.product.product),
    discount: state.discount ? serializeCheckoutDiscount(state.discount) : null,
    attached_custom_fields: state.product.customFields.map((attached) => ({
      custom_field_id: attached.custom_field.id,
      custom_field: serializeCustomField(attached.custom_field),
      order: attached.order,
      required: attached.required,
    })),
    trial_interval: row.trial_interval,
    trial_interval_count: row.trial_interval_count,
    active_trial_interval: trial.trial?.interval ?? null,
    active_trial_interval_count: trial.trial?.count ?? null,
    trial_unavailable_reason: trial.unavailable,
  };
}

/** The seller's view. */
export function serializeCheckout(config: CheckoutSerializerConfig, state: CheckoutState): CheckoutWire {
  const { row } = state;
  return {
    ...serializeBase(config, state),
    metadata: (row.metadata ?? {}) as Metadata,
    customer_external_id: row.customer_external_id,
    subscription_id: row.subscription_id,
    customer_metadata: (row.customer_metadata ?? {}) as Metadata,
  };
}

/** The buyer's view (by client secret): no seller metadata, the organization embedded. */
export function serializeCheckoutPublic(config: CheckoutSerializerConfig, state: CheckoutState): CheckoutPublicWire {
  return { ...serializeBase(config, state), organization: serializeOrganization(state.organization) };
}
