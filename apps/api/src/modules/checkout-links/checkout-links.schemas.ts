import { z } from 'zod/v4';
import { MetadataInput, MetadataOutput } from '../../platform/http/metadata.js';
import { oneOrList, paginationQuery, sortingQuery } from '../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../platform/http/schemas.js';
import { DiscountBase } from '../discounts/discounts.schemas.js';
import { CheckoutLinkProduct, TrialInterval, trialInput } from '../products/products.schemas.js';

/** Extension: how the link performs (its checkouts are counted from the checkouts table). */
export const CheckoutLinkStats = z
  .object({
    visits: z.int().describe('Times the link was opened.'),
    checkouts_started: z
      .int()
      .describe('Checkouts from the link whose buyer submitted the payment form (confirmed, succeeded or failed).'),
    checkouts_completed: z.int().describe('Checkouts from the link that succeeded.'),
    conversion: z.number().describe('checkouts_completed / visits, 0 when there was no visit.'),
  })
  .meta({ id: 'CheckoutLinkStats' });

export const CheckoutLink = z
  .object({
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    id: z.uuid(),
    metadata: MetadataOutput,
    payment_processor: z.literal('stripe'),
    client_secret: z.string(),
    success_url: z.string().nullable(),
    label: z.string().nullable(),
    allow_discount_codes: z.boolean(),
    require_billing_address: z.boolean(),
    discount_id: z.uuid().nullable(),
    organization_id: z.uuid(),
    products: z.array(CheckoutLinkProduct),
    discount: DiscountBase.nullable(),
    url: z.string(),
    // The trial its checkouts give instead of the product's (null: the product's; docs/trials.md).
    trial_interval: TrialInterval.nullable(),
    trial_interval_count: z.int().nullable(),
    stats: CheckoutLinkStats.describe('Tessera extension: visits, checkouts started and completed, conversion.'),
  })
  .meta({ id: 'CheckoutLink' });

export const ListResourceCheckoutLink = ListResource(CheckoutLink, 'ListResourceCheckoutLink');

/** `{CHECKOUT_ID}` in a success URL is replaced by the checkout's id when the buyer lands there. */
const SuccessUrl = z.url({ protocol: /^https?$/, message: 'Input should be a valid http(s) URL' }).max(2048);

const common = {
  metadata: MetadataInput.optional(),
  // The only processor the wire knows; Tessera's processor is chosen by configuration.
  payment_processor: z.literal('stripe').default('stripe'),
  label: z.string().trim().max(256).nullable().optional(),
  allow_discount_codes: z.boolean().default(true),
  require_billing_address: z.boolean().default(false),
  discount_id: Id().nullable().optional(),
  success_url: SuccessUrl.nullable().optional(),
  ...trialInput,
};

/**
 * Exactly one of `products`, `product_id` or `product_price_id` (the last two are the reference's
 * deprecated single-product forms).
 */
export const CheckoutLinkCreate = z
  .object({
    ...common,
    products: z.array(Id()).min(1).max(50).optional(),
    product_id: Id().optional(),
    product_price_id: Id().optional(),
  })
  .superRefine((value, ctx) => {
    const given = ['products', 'product_id', 'product_price_id'].filter(
      (key) => value[key as keyof typeof value] !== undefined,
    );
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: given.length === 0 ? ['products'] : [given[1]!],
        message: 'Exactly one of products, product_id or product_price_id is required.',
        params: { type: given.length === 0 ? 'missing' : 'value_error' },
      });
    }
  })
  .meta({ id: 'CheckoutLinkCreate' });

export const CheckoutLinkUpdate = z
  .object({
    metadata: MetadataInput.optional(),
    products: z.array(Id()).min(1).max(50).nullable().optional(),
    label: common.label,
    allow_discount_codes: z.boolean().nullable().optional(),
    require_billing_address: z.boolean().nullable().optional(),
    discount_id: common.discount_id,
    success_url: common.success_url,
    // A null removes the link's own trial.
    ...trialInput,
  })
  .meta({ id: 'CheckoutLinkUpdate' });

export type CheckoutLinkCreateInput = z.output<typeof CheckoutLinkCreate>;
export type CheckoutLinkUpdateInput = z.output<typeof CheckoutLinkUpdate>;

export const CheckoutLinkListQuery = z.object({
  organization_id: oneOrList(Id()),
  product_id: oneOrList(Id()),
  ...paginationQuery,
  sorting: sortingQuery(['created_at', 'label', 'success_url', 'allow_discount_codes'], ['created_at']),
});
export type CheckoutLinkListParams = z.output<typeof CheckoutLinkListQuery>;
