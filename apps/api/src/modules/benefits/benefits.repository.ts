import type { Selectable } from 'kysely';
import type { BenefitGrantsTable, BenefitsTable, MetersTable } from '../../db/tables/benefits.js';
import type { CustomersTable } from '../../db/tables/customers.js';
import type { Executor } from '../../platform/db/database.js';
import { memoizedByIds } from '../../platform/db/read-memo.js';
import { anyUuid, prepared } from '../../platform/db/prepared.js';
import { paginate } from '../../platform/db/paginate.js';
import { metadataMatches } from '../../platform/db/metadata-filter.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Subject } from '../../platform/auth/subject.js';
import type { BenefitGrantListParams, BenefitListParams } from './benefits.schemas.js';
import { likeContains } from '../../platform/db/like.js';

export type BenefitRow = Selectable<BenefitsTable>;
export type BenefitGrantRow = Selectable<BenefitGrantsTable>;
export type MeterRow = Selectable<MetersTable>;
export type GrantCustomerRow = Selectable<CustomersTable>;

function visible(db: Executor, subject: Subject) {
  return db
    .selectFrom('benefits')
    .selectAll('benefits')
    .where('benefits.deleted_at', 'is', null)
    .where(organizationVisibleTo(subject, 'benefits.organization_id'));
}

export async function findVisibleBenefit(db: Executor, subject: Subject, id: string): Promise<BenefitRow | undefined> {
  return visible(db, subject).where('benefits.id', '=', id).executeTakeFirst();
}

/** Locks the row for the rest of the transaction (updates and deletes read, check, then write). */
export async function lockVisibleBenefit(db: Executor, subject: Subject, id: string): Promise<BenefitRow | undefined> {
  return visible(db, subject).where('benefits.id', '=', id).forUpdate().executeTakeFirst();
}

export async function listVisibleBenefits(db: Executor, subject: Subject, params: BenefitListParams) {
  let query = visible(db, subject);
  if (params.organization_id?.length) query = query.where('benefits.organization_id', 'in', params.organization_id);
  if (params.type?.length) query = query.where('benefits.type', 'in', params.type);
  if (params.query) query = query.where('benefits.description', 'ilike', likeContains(params.query));
  if (params.metadata) query = query.where(metadataMatches('benefits.metadata', params.metadata));
  for (const sort of params.sorting) {
    query = query.orderBy(`benefits.${sort.key}`, sort.descending ? 'desc' : 'asc');
  }
  query = query.orderBy('benefits.id');
  return paginate(db, query, params);
}

/**
 * Non-deleted benefits of one organization among `ids` (for products attaching benefits). Ids of
 * other organizations or deleted benefits are simply absent from the result.
 */
export async function findBenefitsByIds(
  db: Executor,
  organizationId: string,
  ids: readonly string[],
): Promise<BenefitRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('benefits')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null)
    .where('id', 'in', [...ids])
    .execute();
}

/**
 * The non-deleted benefits attached to each of `productIds`, in each product's attachment order
 * (the products module's `product_benefits` join table).
 */
const benefitsOfProducts = prepared(1, (db, productIds: readonly string[]) =>
  db
    .selectFrom('product_benefits')
    .innerJoin('benefits', 'benefits.id', 'product_benefits.benefit_id')
    .selectAll('benefits')
    .select('product_benefits.product_id')
    .where('product_benefits.product_id', '=', anyUuid(productIds))
    .where('benefits.deleted_at', 'is', null)
    .orderBy('product_benefits.product_id')
    .orderBy('product_benefits.order')
    .orderBy('benefits.id'),
);

export const findBenefitsOfProducts = memoizedByIds(
  'findBenefitsOfProducts',
  async (db, productIds): Promise<Map<string, BenefitRow[]>> => {
    const byProduct = new Map<string, BenefitRow[]>(productIds.map((id) => [id, []]));
    if (productIds.length === 0) return byProduct;
    for (const { product_id, ...benefit } of await benefitsOfProducts(db, productIds)) {
      byProduct.get(product_id)?.push(benefit);
    }
    return byProduct;
  },
);

/** Deleting a benefit detaches it from every product (the reference hard-deletes the link rows). */
export async function detachBenefitFromProducts(db: Executor, benefitId: string): Promise<void> {
  await db.deleteFrom('product_benefits').where('benefit_id', '=', benefitId).execute();
}

export async function insertBenefit(
  db: Executor,
  row: Omit<BenefitRow, 'properties' | 'metadata'> & { properties: unknown; metadata: unknown },
): Promise<BenefitRow> {
  return db
    .insertInto('benefits')
    .values({ ...row, properties: JSON.stringify(row.properties), metadata: JSON.stringify(row.metadata) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface BenefitChanges {
  modified_at: Date;
  description?: string;
  properties?: unknown;
  metadata?: unknown;
  deleted_at?: Date;
}

export async function updateBenefit(db: Executor, id: string, changes: BenefitChanges): Promise<BenefitRow> {
  const { properties, metadata, ...plain } = changes;
  return db
    .updateTable('benefits')
    .set({
      ...plain,
      ...(properties !== undefined ? { properties: JSON.stringify(properties) } : {}),
      ...(metadata !== undefined ? { metadata: JSON.stringify(metadata) } : {}),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findMeterOfOrganization(
  db: Executor,
  organizationId: string,
  meterId: string,
): Promise<MeterRow | undefined> {
  return db
    .selectFrom('meters')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', meterId)
    .executeTakeFirst();
}

/** The uploaded, live downloadable files of an organization among `ids`. */
export async function findDownloadableFileIds(
  db: Executor,
  organizationId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  const uuids = ids.filter((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
  if (uuids.length === 0) return new Set();
  const rows = await db
    .selectFrom('files')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('service', '=', 'downloadable')
    .where('id', 'in', uuids)
    .where('deleted_at', 'is', null)
    .where('is_uploaded', '=', true)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** Grants of one benefit (already checked visible), newest first; soft-deleted grants excluded. */
export async function listBenefitGrants(db: Executor, benefitId: string, params: BenefitGrantListParams) {
  let query = db
    .selectFrom('benefit_grants')
    .selectAll('benefit_grants')
    .where('benefit_grants.benefit_id', '=', benefitId)
    .where('benefit_grants.deleted_at', 'is', null);
  if (params.is_granted === true) query = query.where('benefit_grants.granted_at', 'is not', null);
  if (params.is_granted === false) query = query.where('benefit_grants.granted_at', 'is', null);
  if (params.customer_id?.length) query = query.where('benefit_grants.customer_id', 'in', params.customer_id);
  query = query.orderBy('benefit_grants.created_at', 'desc').orderBy('benefit_grants.id');
  return paginate(db, query, params);
}

/** The customers of grants (deleted ones included: a grant shows its customer as it is). */
export async function findGrantCustomers(db: Executor, ids: readonly string[]): Promise<Map<string, GrantCustomerRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('customers')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}
