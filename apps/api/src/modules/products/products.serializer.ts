import type { z } from 'zod/v4';
import type { FileRow } from '../files/files.repository.js';
import { serializeProductMedia } from '../files/files.serializer.js';
import type { Metadata } from '../../platform/http/metadata.js';
import { iso } from '../../platform/http/schemas.js';
import type { BenefitRow } from '../benefits/benefits.repository.js';
import { serializeBenefit } from '../benefits/benefits.serializer.js';
import { serializeCustomField } from '../custom-fields/custom-fields.serializer.js';
import { normalizeUnitAmount } from './products.prices.js';
import type { AttachedCustomFieldRow, PriceWithMeter, ProductRow } from './products.repository.js';
import type {
  BenefitPublic,
  CheckoutLinkProduct,
  DiscountProduct,
  OrderProduct,
  Product,
  ProductPrice,
} from './products.schemas.js';

export type ProductWire = z.input<typeof Product>;
export type ProductPriceWire = z.input<typeof ProductPrice>;
export type OrderProductWire = z.input<typeof OrderProduct>;
export type DiscountProductWire = z.input<typeof DiscountProduct>;
export type CheckoutLinkProductWire = z.input<typeof CheckoutLinkProduct>;
export type BenefitPublicWire = z.input<typeof BenefitPublic>;

/** A product with everything its wire shape embeds; `prices` are the visible ones, in wire order. */
export interface ProductBundle {
  product: ProductRow;
  prices: PriceWithMeter[];
  benefits: BenefitRow[];
  customFields: AttachedCustomFieldRow[];
  /** The product's media files in their order (loaded by loadProductBundles). */
  medias?: FileRow[];
}

/** The stored numeric(17,12) reads back as `"0.500000000000"`; the wire gets the canonical `"0.5"`. */
function unitAmountText(stored: string): string {
  const normalized = normalizeUnitAmount(stored);
  return normalized.ok ? normalized.value : stored;
}

/**
 * Prices inherit `type` and `recurring_interval` from their product. Each price yields exactly one
 * wire variant, chosen by `amount_type`.
 */
export function serializePrice(
  price: PriceWithMeter,
  product: Pick<ProductRow, 'recurring_interval'>,
): ProductPriceWire {
  const base = {
    created_at: iso(price.created_at),
    modified_at: iso(price.modified_at),
    id: price.id,
    is_archived: price.is_archived,
    product_id: price.product_id,
    type: product.recurring_interval ? ('recurring' as const) : ('one_time' as const),
    recurring_interval: product.recurring_interval,
    source: 'catalog' as const,
    tax_behavior: null,
  };
  switch (price.amount_type) {
    case 'fixed':
      return {
        ...base,
        amount_type: 'fixed',
        price_currency: price.price_currency!,
        price_amount: price.price_amount!,
      };
    case 'custom':
      return {
        ...base,
        amount_type: 'custom',
        price_currency: price.price_currency!,
        minimum_amount: price.minimum_amount,
        maximum_amount: price.maximum_amount,
        preset_amount: price.preset_amount,
      };
    case 'free':
      return { ...base, amount_type: 'free' };
    case 'metered_unit':
      return {
        ...base,
        amount_type: 'metered_unit',
        price_currency: price.price_currency!,
        unit_amount: unitAmountText(price.unit_amount!),
        cap_amount: price.cap_amount,
        meter_id: price.meter_id!,
        meter: { id: price.meter_id!, name: price.meter_name ?? '' },
      };
  }
}

/** The fields every product view shares: the SDK's OrderProduct and DiscountProduct. */
export function serializeProductBase(row: ProductRow): OrderProductWire {
  return {
    metadata: (row.metadata ?? {}) as Metadata,
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    name: row.name,
    description: row.description,
    recurring_interval: row.recurring_interval,
    recurring_interval_count: row.recurring_interval === null ? null : 1,
    is_recurring: row.recurring_interval !== null,
    is_archived: row.is_archived,
    organization_id: row.organization_id,
    visibility: 'public',
    meter_interval: row.recurring_interval,
    meter_interval_count: row.recurring_interval === null ? null : 1,
  };
}

export const serializeOrderProduct: (row: ProductRow) => OrderProductWire = serializeProductBase;
export const serializeDiscountProduct: (row: ProductRow) => DiscountProductWire = serializeProductBase;

export function serializeProduct(bundle: ProductBundle): ProductWire {
  return {
    ...serializeProductBase(bundle.product),
    prices: bundle.prices.map((price) => serializePrice(price, bundle.product)),
    benefits: bundle.benefits.map(serializeBenefit),
    medias: (bundle.medias ?? []).map(serializeProductMedia),
    attached_custom_fields: bundle.customFields.map((attached) => ({
      custom_field_id: attached.custom_field.id,
      custom_field: serializeCustomField(attached.custom_field),
      order: attached.order,
      required: attached.required,
    })),
    is_tax_applicable: bundle.product.is_tax_applicable,
    trial_interval: bundle.product.trial_interval,
    trial_interval_count: bundle.product.trial_interval_count,
    trial_requires_payment_method: bundle.product.trial_requires_payment_method,
    trial_once_per_customer: bundle.product.trial_once_per_customer,
  };
}

export function serializeBenefitPublic(row: BenefitRow): BenefitPublicWire {
  return {
    id: row.id,
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    type: row.type as BenefitPublicWire['type'],
    description: row.description,
    selectable: row.selectable,
    deletable: row.deletable,
    organization_id: row.organization_id,
  };
}

/** A product as checkout links (and checkouts) show it: no custom fields, benefits as summaries. */
export function serializeCheckoutLinkProduct(bundle: Omit<ProductBundle, 'customFields'>): CheckoutLinkProductWire {
  return {
    ...serializeProductBase(bundle.product),
    prices: bundle.prices.map((price) => serializePrice(price, bundle.product)),
    benefits: bundle.benefits.map(serializeBenefitPublic),
    medias: (bundle.medias ?? []).map(serializeProductMedia),
  };
}
