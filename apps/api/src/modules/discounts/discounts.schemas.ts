import { z } from 'zod/v4';
import { MetadataInput, MetadataOutput } from '../../platform/http/metadata.js';
import { oneOrList, paginationQuery, queryString, sortingQuery } from '../../platform/http/query.js';
import { DateTime, Id, int32, ListResource } from '../../platform/http/schemas.js';
import { DiscountProduct } from '../products/products.schemas.js';

/** The largest fixed discount, in minor units (999,999.99 in a two-decimal currency). */
export const MAX_DISCOUNT_AMOUNT = 99_999_999;

export const DISCOUNT_TYPES = ['fixed', 'percentage'] as const;
export const DISCOUNT_DURATIONS = ['once', 'forever', 'repeating'] as const;

const base = {
  created_at: DateTime(),
  modified_at: DateTime().nullable(),
  id: z.uuid(),
  metadata: MetadataOutput,
  name: z.string(),
  code: z.string().nullable(),
  starts_at: DateTime().nullable(),
  ends_at: DateTime().nullable(),
  max_redemptions: z.int().nullable(),
  redemptions_count: z.int(),
  organization_id: z.uuid(),
};
const fixed = { type: z.literal('fixed'), amount: z.int(), currency: z.string() };
const percentage = { type: z.literal('percentage'), basis_points: z.int() };
const repeating = { duration: z.literal('repeating'), duration_in_months: z.int() };
const onceOrForever = { duration: z.enum(['once', 'forever']) };

/** The four wire variants, base (embedded elsewhere: no `products`) and full. */
export const DiscountFixedRepeatDurationBase = z
  .object({ ...base, ...fixed, ...repeating })
  .meta({ id: 'DiscountFixedRepeatDurationBase' });
export const DiscountFixedOnceForeverDurationBase = z
  .object({ ...base, ...fixed, ...onceOrForever })
  .meta({ id: 'DiscountFixedOnceForeverDurationBase' });
export const DiscountPercentageRepeatDurationBase = z
  .object({ ...base, ...percentage, ...repeating })
  .meta({ id: 'DiscountPercentageRepeatDurationBase' });
export const DiscountPercentageOnceForeverDurationBase = z
  .object({ ...base, ...percentage, ...onceOrForever })
  .meta({ id: 'DiscountPercentageOnceForeverDurationBase' });

export const DiscountBase = z.union([
  DiscountFixedRepeatDurationBase,
  DiscountFixedOnceForeverDurationBase,
  DiscountPercentageRepeatDurationBase,
  DiscountPercentageOnceForeverDurationBase,
]);

const products = { products: z.array(DiscountProduct) };
export const Discount = z
  .union([
    DiscountFixedRepeatDurationBase.extend(products).meta({ id: 'DiscountFixedRepeatDuration' }),
    DiscountFixedOnceForeverDurationBase.extend(products).meta({ id: 'DiscountFixedOnceForeverDuration' }),
    DiscountPercentageRepeatDurationBase.extend(products).meta({ id: 'DiscountPercentageRepeatDuration' }),
    DiscountPercentageOnceForeverDurationBase.extend(products).meta({ id: 'DiscountPercentageOnceForeverDuration' }),
  ])
  .meta({ id: 'Discount' });

export const ListResourceDiscount = ListResource(Discount, 'ListResourceDiscount');

/**
 * Codes: empty means none; otherwise 3 to 256 alphanumeric characters (the reference's rule), matched
 * case-insensitively at checkout.
 */
export const DiscountCode = z.preprocess(
  (value) => (value === '' ? null : value),
  z
    .string()
    .min(3, 'Code must be between 3 and 256 characters long.')
    .max(256, 'Code must be between 3 and 256 characters long.')
    .regex(/^[A-Za-z0-9]+$/, 'Code must contain only alphanumeric characters.')
    .nullable(),
);

const currency = z.string().regex(/^[a-z]{3}$/, 'Currency must be a lower-case ISO 4217 code, such as usd.');

const fields = {
  metadata: MetadataInput.optional(),
  name: z.string().trim().min(1).max(256),
  code: DiscountCode.optional(),
  starts_at: DateTime().nullable().optional(),
  ends_at: DateTime().nullable().optional(),
  max_redemptions: int32().min(1).nullable().optional(),
  products: z.array(Id()).max(100).nullable().optional(),
};

/**
 * One flat create shape (the reference's tagged union over type × duration): the `superRefine`
 * demands the fields of the chosen variant, so a 422 names exactly what is missing.
 */
export const DiscountCreate = z
  .object({
    ...fields,
    type: z.enum(DISCOUNT_TYPES),
    duration: z.enum(DISCOUNT_DURATIONS),
    duration_in_months: z.int().min(1).max(999).nullable().optional(),
    amount: z.int().min(0).max(MAX_DISCOUNT_AMOUNT).nullable().optional(),
    currency: currency.default('usd'),
    basis_points: z.int().min(1).max(10_000).nullable().optional(),
    organization_id: Id().nullable().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.type === 'fixed' && value.amount == null) {
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: 'Field required for a fixed discount',
        params: { type: 'missing' },
      });
    }
    if (value.type === 'percentage' && value.basis_points == null) {
      ctx.addIssue({
        code: 'custom',
        path: ['basis_points'],
        message: 'Field required for a percentage discount',
        params: { type: 'missing' },
      });
    }
    if (value.duration === 'repeating' && value.duration_in_months == null) {
      ctx.addIssue({
        code: 'custom',
        path: ['duration_in_months'],
        message: 'Field required for a repeating discount',
        params: { type: 'missing' },
      });
    }
    if (value.starts_at && value.ends_at && Date.parse(value.starts_at) >= Date.parse(value.ends_at)) {
      ctx.addIssue({ code: 'custom', path: ['ends_at'], message: 'starts_at must be before ends_at' });
    }
  })
  .meta({ id: 'DiscountCreate' });

export const DiscountUpdate = z
  .object({
    metadata: MetadataInput.optional(),
    name: fields.name.nullable().optional(),
    code: fields.code,
    starts_at: fields.starts_at,
    ends_at: fields.ends_at,
    max_redemptions: fields.max_redemptions,
    duration: z.enum(DISCOUNT_DURATIONS).nullable().optional(),
    duration_in_months: z.int().min(1).max(999).nullable().optional(),
    type: z.enum(DISCOUNT_TYPES).nullable().optional(),
    amount: z.int().min(0).max(MAX_DISCOUNT_AMOUNT).nullable().optional(),
    currency: currency.nullable().optional(),
    basis_points: z.int().min(1).max(10_000).nullable().optional(),
    products: fields.products,
  })
  .meta({ id: 'DiscountUpdate' });

export type DiscountCreateInput = z.output<typeof DiscountCreate>;
export type DiscountUpdateInput = z.output<typeof DiscountUpdate>;

export const DiscountListQuery = z.object({
  organization_id: oneOrList(Id()),
  query: queryString(),
  ...paginationQuery,
  sorting: sortingQuery(['created_at', 'name', 'code', 'redemptions_count'], ['-created_at']),
});
export type DiscountListParams = z.output<typeof DiscountListQuery>;
