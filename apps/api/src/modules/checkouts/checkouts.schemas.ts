import { z } from 'zod/v4';
import { Address, AddressInput } from '../../platform/http/countries.js';
import { MetadataInput, MetadataOutput } from '../../platform/http/metadata.js';
import { oneOrList, paginationQuery, queryString, sortingQuery } from '../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../platform/http/schemas.js';
import { Organization } from '../organizations/organizations.schemas.js';
import {
  AttachedCustomField,
  CheckoutLinkProduct,
  ProductPrice,
  TrialInterval,
  trialInput,
} from '../products/products.schemas.js';

export const CHECKOUT_STATUSES = ['open', 'expired', 'confirmed', 'succeeded', 'failed'] as const;
export const CheckoutStatus = z.enum(CHECKOUT_STATUSES).meta({ id: 'CheckoutStatus' });

/** The largest checkout amount (999,999.99 in a two-decimal currency); the smallest non-zero is 50. */
export const MAX_CHECKOUT_AMOUNT = 99_999_999;

// ---------------------------------------------------------------------------------------------------
// Read
// ---------------------------------------------------------------------------------------------------

/** A product as a checkout shows it: the checkout-link view without metadata. */
export const CheckoutProduct = CheckoutLinkProduct.omit({ metadata: true }).meta({ id: 'CheckoutProduct' });

const discountBase = { id: z.uuid(), name: z.string(), code: z.string().nullable() };
const fixed = { type: z.literal('fixed'), amount: z.int(), currency: z.string() };
const percentage = { type: z.literal('percentage'), basis_points: z.int() };
const repeating = { duration: z.literal('repeating'), duration_in_months: z.int() };
const onceOrForever = { duration: z.enum(['once', 'forever']) };

export const CheckoutDiscount = z.union([
  z.object({ ...discountBase, ...fixed, ...repeating }).meta({ id: 'CheckoutDiscountFixedRepeatDuration' }),
  z.object({ ...discountBase, ...fixed, ...onceOrForever }).meta({ id: 'CheckoutDiscountFixedOnceForeverDuration' }),
  z.object({ ...discountBase, ...percentage, ...repeating }).meta({ id: 'CheckoutDiscountPercentageRepeatDuration' }),
  z
    .object({ ...discountBase, ...percentage, ...onceOrForever })
    .meta({ id: 'CheckoutDiscountPercentageOnceForeverDuration' }),
]);

export const CheckoutCustomerBillingAddressFields = z
  .object({
    country: z.boolean(),
    state: z.boolean(),
    city: z.boolean(),
    postal_code: z.boolean(),
    line1: z.boolean(),
    line2: z.boolean(),
  })
  .meta({ id: 'CheckoutCustomerBillingAddressFields' });

const CustomFieldDataOutput = z.record(z.string(), z.union([z.string(), z.int(), z.boolean(), DateTime()]).nullable());

/** Every view of a checkout shares these. */
const checkoutBase = {
  created_at: DateTime(),
  modified_at: DateTime().nullable(),
  id: z.uuid(),
  custom_field_data: CustomFieldDataOutput.optional(),
  payment_processor: z.literal('stripe'),
  status: CheckoutStatus,
  client_secret: z.string(),
  url: z.string(),
  expires_at: DateTime(),
  success_url: z.string(),
  embed_origin: z.string().nullable(),
  amount: z.int(),
  discount_amount: z.int(),
  net_amount: z.int(),
  tax_amount: z.int().nullable(),
  total_amount: z.int(),
  currency: z.string(),
  product_id: z.uuid(),
  product_price_id: z.uuid(),
  discount_id: z.uuid().nullable(),
  allow_discount_codes: z.boolean(),
  require_billing_address: z.boolean(),
  is_discount_applicable: z.boolean(),
  is_free_product_price: z.boolean(),
  is_payment_required: z.boolean(),
  is_payment_setup_required: z.boolean(),
  is_payment_form_required: z.boolean(),
  customer_id: z.uuid().nullable(),
  is_business_customer: z.boolean(),
  customer_name: z.string().nullable(),
  customer_email: z.string().nullable(),
  customer_ip_address: z.string().nullable(),
  customer_billing_name: z.string().nullable(),
  customer_billing_address: Address.nullable(),
  customer_tax_id: z.string().nullable(),
  payment_processor_metadata: z.record(z.string(), z.string()),
  customer_billing_address_fields: CheckoutCustomerBillingAddressFields,
  products: z.array(CheckoutProduct),
  product: CheckoutProduct,
  product_price: ProductPrice,
  discount: CheckoutDiscount.nullable(),
  attached_custom_fields: z.array(AttachedCustomField),
  // The checkout's own trial (null: the product's), and the trial it gives (docs/trials.md): with one,
  // nothing is charged now and the totals are what the first period will cost at the trial's end.
  trial_interval: TrialInterval.nullable(),
  trial_interval_count: z.int().nullable(),
  active_trial_interval: TrialInterval.nullable(),
  active_trial_interval_count: z.int().nullable(),
  // Why a product's trial is not given: the buyer already had one.
  trial_unavailable_reason: z.enum(['already_redeemed']).nullable(),
};

/** The seller's view. */
export const Checkout = z
  .object({
    ...checkoutBase,
    metadata: MetadataOutput,
    customer_external_id: z.string().nullable(),
    subscription_id: z.uuid().nullable(),
    customer_metadata: z.record(z.string(), z.union([z.string(), z.int(), z.number(), z.boolean()])),
  })
  .meta({ id: 'Checkout' });

export const ListResourceCheckout = ListResource(Checkout, 'ListResourceCheckout');

/** The buyer's view, by client secret. */
export const CheckoutPublic = z.object({ ...checkoutBase, organization: Organization }).meta({ id: 'CheckoutPublic' });

export const CheckoutPublicConfirmed = z
  .object({
    ...checkoutBase,
    organization: Organization,
    status: z.literal('confirmed'),
    // null when the customer was found by email: the buyer signs in to the portal by email code.
    customer_session_token: z.string().nullable(),
  })
  .meta({ id: 'CheckoutPublicConfirmed' });

// ---------------------------------------------------------------------------------------------------
// Write
// ---------------------------------------------------------------------------------------------------

/** `{CHECKOUT_ID}` in a success URL is replaced by the checkout's id. */
const SuccessUrl = z.url({ protocol: /^https?$/, message: 'Input should be a valid http(s) URL' }).max(2048);
const Amount = z.int().min(0).max(MAX_CHECKOUT_AMOUNT);
const Email = z.email({ message: 'value is not a valid email address' }).max(320);
const Name = z.string().trim().max(256);
const CustomFieldDataInput = z.record(z.string(), z.unknown());

/** Fields the buyer may change (public update and confirm), also accepted from the seller. */
const buyerFields = {
  custom_field_data: CustomFieldDataInput.optional(),
  product_id: Id().nullable().optional(),
  product_price_id: Id().nullable().optional(),
  amount: Amount.nullable().optional(),
  is_business_customer: z.boolean().nullable().optional(),
  customer_name: Name.nullable().optional(),
  customer_email: Email.nullable().optional(),
  customer_billing_name: Name.nullable().optional(),
  customer_billing_address: AddressInput.nullable().optional(),
  customer_tax_id: z.string().trim().max(100).nullable().optional(),
};

export const CheckoutCreate = z
  .object({
    metadata: MetadataInput.optional(),
    custom_field_data: CustomFieldDataInput.optional(),
    discount_id: Id().nullable().optional(),
    allow_discount_codes: z.boolean().default(true),
    require_billing_address: z.boolean().default(false),
    amount: Amount.nullable().optional(),
    customer_id: Id().nullable().optional(),
    is_business_customer: z.boolean().default(false),
    customer_external_id: z.string().min(1).max(256).nullable().optional(),
    customer_name: Name.nullable().optional(),
    customer_email: Email.nullable().optional(),
    customer_ip_address: z.string().max(64).nullable().optional(),
    customer_billing_name: Name.nullable().optional(),
    customer_billing_address: AddressInput.nullable().optional(),
    customer_tax_id: z.string().trim().max(100).nullable().optional(),
    customer_metadata: MetadataInput.optional(),
    subscription_id: Id().nullable().optional(),
    success_url: SuccessUrl.nullable().optional(),
    embed_origin: z.string().max(2048).nullable().optional(),
    ...trialInput,
    products: z.array(Id()).min(1).max(50),
  })
  .meta({ id: 'CheckoutCreate' });
export type CheckoutCreateInput = z.output<typeof CheckoutCreate>;

export const CheckoutUpdate = z
  .object({
    ...buyerFields,
    metadata: MetadataInput.optional(),
    discount_id: Id().nullable().optional(),
    allow_discount_codes: z.boolean().nullable().optional(),
    require_billing_address: z.boolean().nullable().optional(),
    customer_ip_address: z.string().max(64).nullable().optional(),
    customer_metadata: MetadataInput.nullable().optional(),
    success_url: SuccessUrl.nullable().optional(),
    embed_origin: z.string().max(2048).nullable().optional(),
    // A null removes the checkout's own trial (the product's applies again).
    ...trialInput,
  })
  .meta({ id: 'CheckoutUpdate' });
export type CheckoutUpdateInput = z.output<typeof CheckoutUpdate>;

const DiscountCodeInput = z.string().max(256).nullable().optional();

export const CheckoutUpdatePublic = z
  .object({ ...buyerFields, discount_code: DiscountCodeInput })
  .meta({ id: 'CheckoutUpdatePublic' });
export type CheckoutUpdatePublicInput = z.output<typeof CheckoutUpdatePublic>;

export const CheckoutConfirmStripe = z
  .object({
    ...buyerFields,
    discount_code: DiscountCodeInput,
    confirmation_token_id: z.string().max(256).nullable().optional(),
  })
  .meta({ id: 'CheckoutConfirmStripe' });
export type CheckoutConfirmInput = z.output<typeof CheckoutConfirmStripe>;

/** Everything an update may carry, whoever sends it (the service applies what the caller may change). */
export type CheckoutChangeInput = Partial<CheckoutUpdateInput & CheckoutConfirmInput>;

export const ClientSecretParams = z.object({ client_secret: z.string().min(1).max(128) });

export const CheckoutListQuery = z.object({
  organization_id: oneOrList(Id()),
  product_id: oneOrList(Id()),
  customer_id: oneOrList(Id()),
  status: oneOrList(CheckoutStatus),
  query: queryString(),
  ...paginationQuery,
  sorting: sortingQuery(['created_at', 'expires_at', 'status'], ['-created_at']),
});
export type CheckoutListParams = z.output<typeof CheckoutListQuery>;
