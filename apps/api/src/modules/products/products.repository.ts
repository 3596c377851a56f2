import { sql, type Selectable } from 'kysely';
import type { ProductPricesTable, ProductsTable } from '../../db/tables/products.js';
import type { CustomFieldsTable } from '../../db/tables/custom-fields.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { memoizedByIds } from '../../platform/db/read-memo.js';
import { anyUuid, prepared } from '../../platform/db/prepared.js';
import { paginate } from '../../platform/db/paginate.js';
import { visiblePrices } from './products.prices.js';
import type { ProductListParams } from './products.schemas.js';
import { likeContains } from '../../platform/db/like.js';

export type ProductRow = Selectable<ProductsTable>;
export type PriceRow = Selectable<ProductPricesTable>;
/** A price with the name of its meter (metered prices embed `meter {id, name}`). */
export type PriceWithMeter = PriceRow & { meter_name: string | null };
export type ProductWithPrices = ProductRow & { prices: PriceWithMeter[] };

export interface AttachedCustomFieldRow {
  custom_field: Selectable<CustomFieldsTable>;
  order: number;
  required: boolean;
}

function visible(db: Executor, subject: Subject) {
  return db
    .selectFrom('products')
    .selectAll('products')
    .where(organizationVisibleTo(subject, 'products.organization_id'));
}

export async function findVisibleProduct(db: Executor, subject: Subject, id: string): Promise<ProductRow | undefined> {
  return visible(db, subject).where('products.id', '=', id).executeTakeFirst();
}

/** Locks the product for the rest of the transaction: its prices and attachments are rewritten from it. */
export async function lockVisibleProduct(db: Executor, subject: Subject, id: string): Promise<ProductRow | undefined> {
  return visible(db, subject).where('products.id', '=', id).forUpdate().executeTakeFirst();
}

const SORT_COLUMNS = {
  created_at: 'products.created_at',
  name: 'products.name',
  price_amount_type: 'products.price_sort_type',
  price_amount: 'products.price_sort_amount',
} as const;

export async function listVisibleProducts(db: Executor, subject: Subject, params: ProductListParams) {
  let query = visible(db, subject);
  if (params.id?.length) query = query.where('products.id', 'in', params.id);
  if (params.organization_id?.length) query = query.where('products.organization_id', 'in', params.organization_id);
  if (params.query) query = query.where('products.name', 'ilike', likeContains(params.query));
  if (params.is_archived !== undefined) query = query.where('products.is_archived', '=', params.is_archived);
  if (params.is_recurring !== undefined) {
    query = query.where('products.recurring_interval', params.is_recurring ? 'is not' : 'is', null);
  }
  const benefitIds = params.benefit_id;
  if (benefitIds?.length) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('product_benefits')
          .innerJoin('benefits', 'benefits.id', 'product_benefits.benefit_id')
          .select('product_benefits.product_id')
          .whereRef('product_benefits.product_id', '=', 'products.id')
          .where('product_benefits.benefit_id', 'in', benefitIds)
          .where('benefits.deleted_at', 'is', null),
      ),
    );
  }
  for (const sort of params.sorting) {
    query = query.orderBy(SORT_COLUMNS[sort.key], sort.descending ? 'desc' : 'asc');
  }
  query = query.orderBy('products.id');
  return paginate(db, query, params);
}

const pricesOfProducts = prepared(1, (db, productIds: readonly string[]) =>
  db
    .selectFrom('product_prices')
    .leftJoin('meters', 'meters.id', 'product_prices.meter_id')
    .selectAll('product_prices')
    .select('meters.name as meter_name')
    .where('product_prices.product_id', '=', anyUuid(productIds))
    .orderBy('product_prices.product_id')
    .orderBy('product_prices.position'),
);

/** Every price of these products, archived ones included, with their meter's name. */
export const findPricesOfProducts = memoizedByIds(
  'findPricesOfProducts',
  async (db, productIds): Promise<Map<string, PriceWithMeter[]>> => {
    const byProduct = new Map<string, PriceWithMeter[]>(productIds.map((id) => [id, []]));
    if (productIds.length === 0) return byProduct;
    for (const row of await pricesOfProducts(db, productIds)) byProduct.get(row.product_id)?.push(row);
    return byProduct;
  },
);

/**
 * Products of one organization among `ids`, each with its non-archived prices in wire order (for
 * discounts, checkout links and checkouts). Ids of other organizations are simply absent.
 */
export async function findProductsByIds(
  db: Executor,
  organizationId: string,
  ids: readonly string[],
): Promise<ProductWithPrices[]> {
  if (ids.length === 0) return [];
  const products = await db
    .selectFrom('products')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', 'in', [...ids])
    .execute();
  const prices = await findPricesOfProducts(
    db,
    products.map((product) => product.id),
  );
  return products.map((product) => ({ ...product, prices: visiblePrices(prices.get(product.id) ?? []) }));
}

export async function insertProduct(db: Executor, row: Omit<ProductRow, 'metadata'> & { metadata: unknown }) {
  return db
    .insertInto('products')
    .values({ ...row, metadata: JSON.stringify(row.metadata) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface ProductChanges {
  modified_at: Date;
  name?: string;
  description?: string | null;
  is_archived?: boolean;
  is_tax_applicable?: boolean;
  trial_interval?: 'day' | 'week' | 'month' | 'year' | null;
  trial_interval_count?: number | null;
  trial_requires_payment_method?: boolean;
  trial_once_per_customer?: boolean;
  metadata?: unknown;
  price_sort_type?: number | null;
  price_sort_amount?: number | null;
}

export async function updateProduct(db: Executor, id: string, changes: ProductChanges): Promise<ProductRow> {
  const { metadata, ...plain } = changes;
  return db
    .updateTable('products')
    .set({ ...plain, ...(metadata !== undefined ? { metadata: JSON.stringify(metadata) } : {}) })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertPrices(db: Executor, rows: PriceRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('product_prices').values(rows).execute();
}

export async function archivePrices(db: Executor, ids: readonly string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('product_prices')
    .set({ is_archived: true, modified_at: at })
    .where('id', 'in', [...ids])
    .execute();
}

/** Meters of the organization among `ids` (archived meters take no new prices). */
export async function findMetersOfOrganization(
  db: Executor,
  organizationId: string,
  ids: readonly string[],
): Promise<{ id: string; name: string }[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('meters')
    .select(['id', 'name'])
    .where('organization_id', '=', organizationId)
    .where('archived_at', 'is', null)
    .where('id', 'in', [...ids])
    .execute();
}

export async function replaceProductBenefits(
  db: Executor,
  productId: string,
  benefitIds: readonly string[],
  at: Date,
): Promise<void> {
  await db.deleteFrom('product_benefits').where('product_id', '=', productId).execute();
  if (benefitIds.length === 0) return;
  await db
    .insertInto('product_benefits')
    .values(
      benefitIds.map((benefitId, order) => ({ product_id: productId, benefit_id: benefitId, order, created_at: at })),
    )
    .execute();
}

export async function replaceProductCustomFields(
  db: Executor,
  productId: string,
  fields: readonly { custom_field_id: string; required: boolean }[],
): Promise<void> {
  await db.deleteFrom('product_custom_fields').where('product_id', '=', productId).execute();
  if (fields.length === 0) return;
  await db
    .insertInto('product_custom_fields')
    .values(
      fields.map((field, order) => ({
        product_id: productId,
        custom_field_id: field.custom_field_id,
        order,
        required: field.required,
      })),
    )
    .execute();
}

/** The live custom fields attached to each product, in attachment order. */
const customFieldsOfProducts = prepared(1, (db, productIds: readonly string[]) =>
  db
    .selectFrom('product_custom_fields')
    .innerJoin('custom_fields', 'custom_fields.id', 'product_custom_fields.custom_field_id')
    .selectAll('custom_fields')
    .select([
      'product_custom_fields.product_id as attached_product_id',
      'product_custom_fields.order as attached_order',
      'product_custom_fields.required as attached_required',
    ])
    .where('product_custom_fields.product_id', '=', anyUuid(productIds))
    .where('custom_fields.deleted_at', 'is', null)
    .orderBy('product_custom_fields.product_id')
    .orderBy('product_custom_fields.order'),
);

export const findCustomFieldsOfProducts = memoizedByIds(
  'findCustomFieldsOfProducts',
  async (db, productIds): Promise<Map<string, AttachedCustomFieldRow[]>> => {
    const byProduct = new Map<string, AttachedCustomFieldRow[]>(productIds.map((id) => [id, []]));
    if (productIds.length === 0) return byProduct;
    for (const { attached_product_id, attached_order, attached_required, ...field } of await customFieldsOfProducts(
      db,
      productIds,
    )) {
      byProduct
        .get(attached_product_id)
        ?.push({ custom_field: field, order: attached_order, required: attached_required });
    }
    return byProduct;
  },
);

/** The next free price position of a product (positions only grow, so creation order is kept). */
export async function nextPricePosition(db: Executor, productId: string): Promise<number> {
  const row = await db
    .selectFrom('product_prices')
    .select(sql<number | null>`max(position)`.as('max'))
    .where('product_id', '=', productId)
    .executeTakeFirst();
  return row?.max == null ? 0 : Number(row.max) + 1;
}
