import { z } from 'zod/v4';
import { ProductMediaFileRead } from '../files/files.schemas.js';
import { MetadataInput, MetadataOutput } from '../../platform/http/metadata.js';
import { oneOrList, paginationQuery, queryBool, queryString, sortingQuery } from '../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../platform/http/schemas.js';
import { Benefit } from '../benefits/benefits.schemas.js';
import { BenefitTypeEnum } from '../benefits/benefits.properties.js';
import { CustomField } from '../custom-fields/custom-fields.schemas.js';
import {
  DEFAULT_CURRENCY,
  MAXIMUM_CUSTOM_PRICE_AMOUNT,
  MAXIMUM_PRICE_AMOUNT,
  MINIMUM_PRICE_AMOUNT,
} from './products.prices.js';

export const SubscriptionRecurringInterval = z.enum(['month', 'year']).meta({ id: 'SubscriptionRecurringInterval' });
export const ProductPriceType = z.enum(['one_time', 'recurring']).meta({ id: 'ProductPriceType' });

// ---------------------------------------------------------------------------------------------------
// Read
// ---------------------------------------------------------------------------------------------------

/**
 * Every price carries `type` and `recurring_interval`, inherited from its product (the SDK requires
 * both keys). A free price has no currency on the wire.
 */
const priceBase = {
  created_at: DateTime(),
  modified_at: DateTime().nullable(),
  id: z.uuid(),
  is_archived: z.boolean(),
  product_id: z.uuid(),
  type: ProductPriceType,
  recurring_interval: SubscriptionRecurringInterval.nullable(),
  source: z.enum(['catalog', 'ad_hoc']).meta({
    id: 'ProductPriceSource',
    description: "Where the price comes from (2026): a product's own price, `catalog`, for every Tessera price.",
  }),
  tax_behavior: z
    .enum(['location', 'inclusive', 'exclusive'])
    .nullable()
    .meta({ description: "The price's own tax behavior (2026): null, the organization's applies." }),
};

export const ProductPriceFixed = z
  .object({ ...priceBase, amount_type: z.literal('fixed'), price_currency: z.string(), price_amount: z.int() })
  .meta({ id: 'ProductPriceFixed' });

export const ProductPriceCustom = z
  .object({
    ...priceBase,
    amount_type: z.literal('custom'),
    price_currency: z.string(),
    minimum_amount: z.int().nullable(),
    maximum_amount: z.int().nullable(),
    preset_amount: z.int().nullable(),
  })
  .meta({ id: 'ProductPriceCustom' });

export const ProductPriceFree = z
  .object({ ...priceBase, amount_type: z.literal('free') })
  .meta({ id: 'ProductPriceFree' });

export const ProductPriceMeter = z.object({ id: z.uuid(), name: z.string() }).meta({ id: 'ProductPriceMeter' });

export const ProductPriceMeteredUnit = z
  .object({
    ...priceBase,
    amount_type: z.literal('metered_unit'),
    price_currency: z.string(),
    unit_amount: z.string().meta({ description: 'The price per unit in cents, as a decimal string.' }),
    cap_amount: z.int().nullable(),
    meter_id: z.uuid(),
    meter: ProductPriceMeter,
  })
  .meta({ id: 'ProductPriceMeteredUnit' });

export const ProductPrice = z
  .discriminatedUnion('amount_type', [ProductPriceMeteredUnit, ProductPriceCustom, ProductPriceFixed, ProductPriceFree])
  .meta({ id: 'ProductPrice' });

/** Product media files arrive with the files module; until then products have none. */
export { ProductMediaFileRead };

export const AttachedCustomField = z
  .object({ custom_field_id: z.uuid(), custom_field: CustomField, order: z.int(), required: z.boolean() })
  .meta({ id: 'AttachedCustomField' });

/** An extension of the reference (docs/tax.md): false for a product exempt from tax. */
const TaxApplicable = z.boolean().meta({
  description: 'Whether tax applies to this product (false: exempt). A Tessera extension (docs/tax.md).',
  'x-tessera-extension': true,
});

export const TrialInterval = z.enum(['day', 'week', 'month', 'year']).meta({ id: 'TrialInterval' });

/** A trial of `trial_interval_count` days, weeks, months or years (both null: none; docs/trials.md). */
const trialFields = {
  trial_interval: TrialInterval.nullable(),
  trial_interval_count: z.int().nullable(),
};

/** Trial settings in a create or update: both or neither; 1 to 2 years' worth (checked by the service). */
export const trialInput = {
  trial_interval: TrialInterval.nullable().optional(),
  trial_interval_count: z.int().nullable().optional(),
};

/**
 * What the reference's products carry since 2026 and Tessera has one answer for (every product public,
 * billed, usage included, once per its own interval). Every product view has them.
 */
export const productFields2026 = {
  recurring_interval_count: z
    .int()
    .nullable()
    .meta({ description: 'How many intervals a period lasts (2026): 1 for a recurring product, null for one-time.' }),
  visibility: z.enum(['draft', 'private', 'public']).meta({
    id: 'ProductVisibility',
    description: 'Who can see the product (2026): every Tessera product is public (an archived one too).',
  }),
  meter_interval: SubscriptionRecurringInterval.nullable().meta({
    description: "The interval usage is billed at (2026): the product's own interval, null for one-time.",
  }),
  meter_interval_count: z
    .int()
    .nullable()
    .meta({ description: 'How many meter intervals a usage period lasts (2026): 1, null for one-time.' }),
};

/** The product fields every view shares (the SDK's OrderProduct and DiscountProduct are exactly these). */
const productBase = {
  metadata: MetadataOutput,
  created_at: DateTime(),
  modified_at: DateTime().nullable(),
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  recurring_interval: SubscriptionRecurringInterval.nullable(),
  is_recurring: z.boolean(),
  is_archived: z.boolean(),
  organization_id: z.uuid(),
  ...productFields2026,
};

export const Product = z
  .object({
    ...productBase,
    prices: z.array(ProductPrice),
    benefits: z.array(Benefit),
    medias: z.array(ProductMediaFileRead),
    attached_custom_fields: z.array(AttachedCustomField),
    is_tax_applicable: TaxApplicable,
    ...trialFields,
    trial_requires_payment_method: z.boolean(),
    trial_once_per_customer: z.boolean(),
  })
  .meta({ id: 'Product' });

export const ListResourceProduct = ListResource(Product, 'ListResourceProduct');

export const OrderProduct = z.object(productBase).meta({ id: 'OrderProduct' });
export const DiscountProduct = z.object(productBase).meta({ id: 'DiscountProduct' });

export const BenefitPublic = z
  .object({
    id: z.uuid(),
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    type: BenefitTypeEnum,
    description: z.string(),
    selectable: z.boolean(),
    deletable: z.boolean(),
    organization_id: z.uuid(),
  })
  .meta({ id: 'BenefitPublic' });

export const CheckoutLinkProduct = z
  .object({
    ...productBase,
    prices: z.array(ProductPrice),
    benefits: z.array(BenefitPublic),
    medias: z.array(ProductMediaFileRead),
  })
  .meta({ id: 'CheckoutLinkProduct' });

// ---------------------------------------------------------------------------------------------------
// Write
// ---------------------------------------------------------------------------------------------------

/** Lower-case ISO 4217; the code itself is checked by the service (products.prices.ts). */
const currency = z
  .string()
  .default(DEFAULT_CURRENCY)
  .meta({ description: 'Lower-case ISO 4217 currency code.', pattern: '^[a-z]{3}$' });

export const ProductPriceFixedCreate = z
  .object({
    amount_type: z.literal('fixed'),
    price_amount: z.int().min(MINIMUM_PRICE_AMOUNT).max(MAXIMUM_PRICE_AMOUNT),
    price_currency: currency,
  })
  .meta({ id: 'ProductPriceFixedCreate' });

export const ProductPriceCustomCreate = z
  .object({
    amount_type: z.literal('custom'),
    price_currency: currency,
    // 0 means "free or pay what you want"; a positive minimum is at least 50 (checked by the service).
    minimum_amount: z.int().min(0).max(MAXIMUM_PRICE_AMOUNT).nullable().optional(),
    maximum_amount: z.int().min(MINIMUM_PRICE_AMOUNT).max(MAXIMUM_CUSTOM_PRICE_AMOUNT).nullable().optional(),
    preset_amount: z.int().min(MINIMUM_PRICE_AMOUNT).max(MAXIMUM_CUSTOM_PRICE_AMOUNT).nullable().optional(),
  })
  .meta({ id: 'ProductPriceCustomCreate' });

export const ProductPriceFreeCreate = z
  .object({ amount_type: z.literal('free') })
  .meta({ id: 'ProductPriceFreeCreate' });

export const ProductPriceMeteredUnitCreate = z
  .object({
    amount_type: z.literal('metered_unit'),
    meter_id: Id(),
    price_currency: currency,
    // A number or a decimal string; normalised to a decimal string by the service.
    unit_amount: z.union([z.number(), z.string()]),
    cap_amount: z.int().min(0).nullable().optional(),
  })
  .meta({ id: 'ProductPriceMeteredUnitCreate' });

const AMOUNT_TYPES_MESSAGE =
  "Input tag does not match any of the expected tags: 'metered_unit', 'fixed', 'custom', 'free'";

export const ProductPriceCreate = z.discriminatedUnion(
  'amount_type',
  [ProductPriceMeteredUnitCreate, ProductPriceFixedCreate, ProductPriceCustomCreate, ProductPriceFreeCreate],
  { error: AMOUNT_TYPES_MESSAGE },
);
export type ProductPriceCreateInput = z.output<typeof ProductPriceCreate>;

export const ExistingProductPrice = z.object({ id: Id() }).meta({ id: 'ExistingProductPrice' });

export const AttachedCustomFieldCreate = z
  .object({ custom_field_id: Id(), required: z.boolean() })
  .meta({ id: 'AttachedCustomFieldCreate' });

const name = z.string().min(3, 'String should have at least 3 characters');
// Required but nullable: read as a string first, so a missing key is "Field required", not a bad enum value.
const recurringInterval = z
  .string()
  .nullable()
  .pipe(SubscriptionRecurringInterval.nullable())
  .meta({ enum: ['month', 'year', null], description: 'month or year for a recurring product, null for one-time.' });
// An empty description is no description (and, in updates, no change).
const description = z
  .string()
  .nullable()
  .transform((value) => (value === '' ? null : value));

export const ProductCreate = z
  .object({
    metadata: MetadataInput.optional(),
    name,
    description: description.optional(),
    recurring_interval: recurringInterval,
    prices: z.array(ProductPriceCreate).min(1, 'At least one price is required.'),
    medias: z.array(Id()).nullable().optional(),
    attached_custom_fields: z.array(AttachedCustomFieldCreate).nullable().optional(),
    is_tax_applicable: TaxApplicable.optional(),
    ...trialInput,
    trial_requires_payment_method: z.boolean().optional(),
    trial_once_per_customer: z.boolean().optional(),
    organization_id: Id().nullable().optional(),
  })
  .meta({ id: 'ProductCreate' });
export type ProductCreateInput = z.output<typeof ProductCreate>;

export const ProductUpdate = z
  .object({
    metadata: MetadataInput.optional(),
    name: name.nullable().optional(),
    description: description.optional(),
    recurring_interval: recurringInterval.optional(),
    is_archived: z.boolean().nullable().optional(),
    // Create variants first: an item that is a new price is reported against the price it tried to be.
    prices: z
      .array(z.union([ProductPriceCreate, ExistingProductPrice]))
      .min(1, 'At least one price is required.')
      .nullable()
      .optional(),
    medias: z.array(Id()).nullable().optional(),
    attached_custom_fields: z.array(AttachedCustomFieldCreate).nullable().optional(),
    is_tax_applicable: TaxApplicable.nullable().optional(),
    // Unlike the other fields, null removes the trial (absent: unchanged).
    ...trialInput,
    trial_requires_payment_method: z.boolean().nullable().optional(),
    trial_once_per_customer: z.boolean().nullable().optional(),
  })
  .meta({ id: 'ProductUpdate' });
export type ProductUpdateInput = z.output<typeof ProductUpdate>;

export const ProductBenefitsUpdate = z.object({ benefits: z.array(Id()) }).meta({ id: 'ProductBenefitsUpdate' });
export type ProductBenefitsUpdateInput = z.output<typeof ProductBenefitsUpdate>;

// ---------------------------------------------------------------------------------------------------
// List
// ---------------------------------------------------------------------------------------------------

export const PRODUCT_SORT_KEYS = ['created_at', 'name', 'price_amount_type', 'price_amount'] as const;

export const ProductListQuery = z.object({
  id: oneOrList(Id()),
  organization_id: oneOrList(Id()),
  query: queryString(),
  is_archived: queryBool(),
  is_recurring: queryBool(),
  benefit_id: oneOrList(Id()),
  ...paginationQuery,
  sorting: sortingQuery<(typeof PRODUCT_SORT_KEYS)[number]>(PRODUCT_SORT_KEYS, ['-created_at']),
});
export type ProductListParams = z.output<typeof ProductListQuery>;
