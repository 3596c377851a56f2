import { sql, type Insertable, type Selectable } from 'kysely';
import type { DiscountsTable } from '../../db/tables/discounts.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { paginate } from '../../platform/db/paginate.js';
import type { ProductRow } from '../products/products.repository.js';
import type { DiscountListParams } from './discounts.schemas.js';
import { likeContains } from '../../platform/db/like.js';

export type DiscountRow = Selectable<DiscountsTable> & { redemptions_count: number };

/** A product a discount is restricted to, with the discount it belongs to. */
export type DiscountProductRow = ProductRow & { discount_id: string };

function visible(db: Executor, subject: Subject) {
  return db
    .selectFrom('discounts')
    .selectAll('discounts')
    .select((eb) =>
      eb
        .selectFrom('discount_redemptions')
        .select(eb.fn.countAll<string>().as('n'))
        .whereRef('discount_redemptions.discount_id', '=', 'discounts.id')
        .as('redemptions_count'),
    )
    .where('discounts.deleted_at', 'is', null)
    .where(organizationVisibleTo(subject, 'discounts.organization_id'));
}

function withCount<T extends { redemptions_count: unknown }>(row: T): T & { redemptions_count: number } {
  return { ...row, redemptions_count: Number(row.redemptions_count ?? 0) };
}

export async function findVisibleDiscount(
  db: Executor,
  subject: Subject,
  id: string,
): Promise<DiscountRow | undefined> {
  const row = await visible(db, subject).where('discounts.id', '=', id).executeTakeFirst();
  return row ? (withCount(row) as DiscountRow) : undefined;
}

/** Locks the discount row: updates check redemptions and codes against a stable row. */
export async function lockVisibleDiscount(
  db: Executor,
  subject: Subject,
  id: string,
): Promise<DiscountRow | undefined> {
  const locked = await db
    .selectFrom('discounts')
    .select('id')
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .where(organizationVisibleTo(subject, 'discounts.organization_id'))
    .forUpdate()
    .executeTakeFirst();
  return locked ? findVisibleDiscount(db, subject, id) : undefined;
}

export async function listVisibleDiscounts(db: Executor, subject: Subject, params: DiscountListParams) {
  let query = visible(db, subject);
  if (params.organization_id) query = query.where('discounts.organization_id', 'in', params.organization_id);
  if (params.query) {
    const pattern = likeContains(params.query);
    query = query.where((eb) =>
      eb.or([eb('discounts.name', 'ilike', pattern), eb('discounts.code', 'ilike', pattern)]),
    );
  }
  for (const sort of params.sorting) {
    const direction = sort.descending ? 'desc' : 'asc';
    if (sort.key === 'redemptions_count') query = query.orderBy(sql`redemptions_count`, direction);
    else if (sort.key === 'name' || sort.key === 'code') {
      query = query.orderBy(sql`lower(${sql.ref(`discounts.${sort.key}`)})`, (ob) =>
        sort.descending ? ob.desc().nullsLast() : ob.asc().nullsLast(),
      );
    } else query = query.orderBy(`discounts.${sort.key}`, direction);
  }
  const { rows, total } = await paginate(db, query.orderBy('discounts.id'), params);
  return { rows: rows.map((row) => withCount(row) as DiscountRow), total };
}

/** A live discount of the organization with this code, compared case-insensitively. */
export async function findDiscountByCode(db: Executor, organizationId: string, code: string, exceptId?: string) {
  let query = db
    .selectFrom('discounts')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null)
    .where(sql`lower(code)`, '=', code.toLowerCase());
  if (exceptId) query = query.where('id', '!=', exceptId);
  return query.executeTakeFirst();
}

export async function insertDiscount(db: Executor, row: Insertable<DiscountsTable>): Promise<void> {
  await db.insertInto('discounts').values(row).execute();
}

export async function updateDiscountRow(
  db: Executor,
  id: string,
  changes: Partial<Omit<Insertable<DiscountsTable>, 'id' | 'organization_id' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('discounts').set(changes).where('id', '=', id).execute();
}

export async function replaceDiscountProducts(
  db: Executor,
  discountId: string,
  productIds: string[],
  at: Date,
): Promise<void> {
  await db.deleteFrom('discount_products').where('discount_id', '=', discountId).execute();
  if (productIds.length === 0) return;
  await db
    .insertInto('discount_products')
    .values(productIds.map((productId) => ({ discount_id: discountId, product_id: productId, created_at: at })))
    .execute();
}

/** Products of the organization among `ids` (not deleted); the caller reports the ones missing. */
export async function findOrganizationProductIds(
  db: Executor,
  organizationId: string,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('products')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((row) => row.id));
}

export async function findDiscountProducts(db: Executor, discountIds: string[]): Promise<DiscountProductRow[]> {
  if (discountIds.length === 0) return [];
  return db
    .selectFrom('discount_products as dp')
    .innerJoin('products as p', 'p.id', 'dp.product_id')
    .selectAll('p')
    .select('dp.discount_id')
    .where('dp.discount_id', 'in', discountIds)
    .orderBy('dp.created_at')
    .orderBy('p.name')
    .execute() as Promise<DiscountProductRow[]>;
}

/** Records a redemption (checkout confirm and subscription discount changes call this). */
export async function insertRedemption(
  db: Executor,
  row: {
    id: string;
    created_at: Date;
    discount_id: string;
    checkout_id?: string | null;
    subscription_id?: string | null;
  },
): Promise<void> {
  await db.insertInto('discount_redemptions').values(row).execute();
}

/** Discounts by id, deleted ones included (records that point at a discount keep showing it). */
export async function findDiscountsByIds(db: Executor, ids: readonly string[]): Promise<DiscountRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('discounts')
    .selectAll('discounts')
    .select((eb) =>
      eb
        .selectFrom('discount_redemptions')
        .select(eb.fn.countAll<string>().as('n'))
        .whereRef('discount_redemptions.discount_id', '=', 'discounts.id')
        .as('redemptions_count'),
    )
    .where('discounts.id', 'in', [...ids])
    .execute();
  return rows.map((row) => withCount(row) as DiscountRow);
}
