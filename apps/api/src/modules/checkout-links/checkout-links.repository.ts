import { sql, type Insertable, type Selectable } from 'kysely';
import type { CheckoutLinksTable } from '../../db/tables/checkout-links.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { paginate } from '../../platform/db/paginate.js';
import type { CheckoutLinkListParams } from './checkout-links.schemas.js';
import type { LinkCounts } from './checkout-links.serializer.js';

export type CheckoutLinkRow = Selectable<CheckoutLinksTable>;

function visible(db: Executor, subject: Subject) {
  return db
    .selectFrom('checkout_links')
    .selectAll('checkout_links')
    .where('checkout_links.deleted_at', 'is', null)
    .where(organizationVisibleTo(subject, 'checkout_links.organization_id'));
}

export async function findVisibleCheckoutLink(db: Executor, subject: Subject, id: string) {
  return visible(db, subject).where('checkout_links.id', '=', id).executeTakeFirst();
}

export async function lockVisibleCheckoutLink(db: Executor, subject: Subject, id: string) {
  return visible(db, subject).where('checkout_links.id', '=', id).forUpdate().executeTakeFirst();
}

/** A live link by its public client secret (the redirect route of the checkout issue). */
export async function findCheckoutLinkByClientSecret(db: Executor, clientSecret: string) {
  return db
    .selectFrom('checkout_links')
    .selectAll()
    .where('client_secret', '=', clientSecret)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function listVisibleCheckoutLinks(db: Executor, subject: Subject, params: CheckoutLinkListParams) {
  let query = visible(db, subject);
  if (params.organization_id) query = query.where('checkout_links.organization_id', 'in', params.organization_id);
  if (params.product_id) {
    const productIds = params.product_id;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('checkout_link_products')
          .select('checkout_link_products.product_id')
          .whereRef('checkout_link_products.checkout_link_id', '=', 'checkout_links.id')
          .where('checkout_link_products.product_id', 'in', productIds),
      ),
    );
  }
  for (const sort of params.sorting) {
    query = query.orderBy(`checkout_links.${sort.key}`, (ob) =>
      sort.descending ? ob.desc().nullsLast() : ob.asc().nullsLast(),
    );
  }
  return paginate(db, query.orderBy('checkout_links.id'), params);
}

export async function insertCheckoutLink(db: Executor, row: Insertable<CheckoutLinksTable>): Promise<void> {
  await db.insertInto('checkout_links').values(row).execute();
}

export async function updateCheckoutLinkRow(
  db: Executor,
  id: string,
  changes: Partial<Omit<Insertable<CheckoutLinksTable>, 'id' | 'organization_id' | 'created_at' | 'client_secret'>>,
): Promise<void> {
  await db.updateTable('checkout_links').set(changes).where('id', '=', id).execute();
}

export async function replaceCheckoutLinkProducts(
  db: Executor,
  linkId: string,
  productIds: readonly string[],
): Promise<void> {
  await db.deleteFrom('checkout_link_products').where('checkout_link_id', '=', linkId).execute();
  if (productIds.length === 0) return;
  await db
    .insertInto('checkout_link_products')
    .values(productIds.map((productId, order) => ({ checkout_link_id: linkId, product_id: productId, order })))
    .execute();
}

/** Product ids of each link, in the link's order. */
export async function findCheckoutLinkProductIds(
  db: Executor,
  linkIds: readonly string[],
): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>(linkIds.map((id) => [id, []]));
  if (linkIds.length === 0) return result;
  const rows = await db
    .selectFrom('checkout_link_products')
    .select(['checkout_link_id', 'product_id'])
    .where('checkout_link_id', 'in', [...linkIds])
    .orderBy('order')
    .execute();
  for (const row of rows) result.get(row.checkout_link_id)!.push(row.product_id);
  return result;
}

/** The product a price belongs to, within the organization. */
export async function findProductIdOfPrice(
  db: Executor,
  organizationId: string,
  priceId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('product_prices as pp')
    .innerJoin('products as p', 'p.id', 'pp.product_id')
    .select('p.id')
    .where('pp.id', '=', priceId)
    .where('p.organization_id', '=', organizationId)
    .executeTakeFirst();
  return row?.id;
}

/** The product of a price the subject may see. */
export async function findVisibleProductIdOfPrice(
  db: Executor,
  subject: Subject,
  priceId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('product_prices')
    .innerJoin('products', 'products.id', 'product_prices.product_id')
    .select('products.id')
    .where('product_prices.id', '=', priceId)
    .where(organizationVisibleTo(subject, 'products.organization_id'))
    .executeTakeFirst();
  return row?.id;
}

/** The organization's discount (live), with the products it is restricted to. */
export async function findDiscountForLink(db: Executor, organizationId: string, discountId: string) {
  const discount = await db
    .selectFrom('discounts')
    .select(['id', 'duration'])
    .where('id', '=', discountId)
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!discount) return undefined;
  const restricted = await db
    .selectFrom('discount_products')
    .select('product_id')
    .where('discount_id', '=', discountId)
    .execute();
  return { ...discount, productIds: restricted.map((r) => r.product_id) };
}

/** Product rows by id (the link already ties them to its organization). */
export async function findProductRows(db: Executor, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('products')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

/**
 * An archived product leaves every checkout link; a link left without products is soft-deleted (it
 * could only open an empty checkout).
 */
export async function removeProductFromCheckoutLinks(db: Executor, productId: string, at: Date): Promise<void> {
  const removed = await db
    .deleteFrom('checkout_link_products')
    .where('product_id', '=', productId)
    .returning('checkout_link_id')
    .execute();
  const linkIds = removed.map((row) => row.checkout_link_id);
  if (linkIds.length === 0) return;
  await db
    .updateTable('checkout_links')
    .set({ deleted_at: at, modified_at: at })
    .where('id', 'in', linkIds)
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('checkout_link_products')
            .select('checkout_link_products.product_id')
            .whereRef('checkout_link_products.checkout_link_id', '=', 'checkout_links.id'),
        ),
      ),
    )
    .execute();
}

/** One visit of the link on `day` (YYYY-MM-DD): a counter per link and day, nothing about the visitor. */
export async function recordCheckoutLinkVisit(db: Executor, checkoutLinkId: string, day: string): Promise<void> {
  await db
    .insertInto('checkout_link_visits')
    .values({ checkout_link_id: checkoutLinkId, day, visits: 1 })
    .onConflict((oc) =>
      oc.columns(['checkout_link_id', 'day']).doUpdateSet({ visits: sql<number>`checkout_link_visits.visits + 1` }),
    )
    .execute();
}

/** Visits, checkouts started (payment form submitted) and completed of each link. */
export async function findCheckoutLinkCounts(db: Executor, ids: readonly string[]): Promise<Map<string, LinkCounts>> {
  const counts = new Map<string, LinkCounts>(ids.map((id) => [id, { visits: 0, started: 0, completed: 0 }]));
  if (ids.length === 0) return counts;
  const visits = await db
    .selectFrom('checkout_link_visits')
    .select(['checkout_link_id', sql<string>`sum(visits)`.as('visits')])
    .where('checkout_link_id', 'in', ids)
    .groupBy('checkout_link_id')
    .execute();
  for (const row of visits) counts.get(row.checkout_link_id)!.visits = Number(row.visits);
  const checkouts = await db
    .selectFrom('checkouts')
    .select([
      'checkout_link_id',
      sql<string>`count(*) FILTER (WHERE status IN ('confirmed', 'succeeded', 'failed'))`.as('started'),
      sql<string>`count(*) FILTER (WHERE status = 'succeeded')`.as('completed'),
    ])
    .where('checkout_link_id', 'in', ids)
    .groupBy('checkout_link_id')
    .execute();
  for (const row of checkouts) {
    const entry = counts.get(row.checkout_link_id!)!;
    entry.started = Number(row.started);
    entry.completed = Number(row.completed);
  }
  return counts;
}
