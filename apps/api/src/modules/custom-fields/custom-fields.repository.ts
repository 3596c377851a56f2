import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { CustomFieldsTable } from '../../db/tables/custom-fields.js';
import type { Executor } from '../../platform/db/database.js';
import { paginate } from '../../platform/db/paginate.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Subject } from '../../platform/auth/subject.js';
import type { CustomFieldListParams } from './custom-fields.schemas.js';
import { likeContains } from '../../platform/db/like.js';

export type CustomFieldRow = Selectable<CustomFieldsTable>;

function visible(db: Executor, subject: Subject) {
  return db
    .selectFrom('custom_fields')
    .selectAll('custom_fields')
    .where('custom_fields.deleted_at', 'is', null)
    .where(organizationVisibleTo(subject, 'custom_fields.organization_id'));
}

export async function findVisibleCustomField(
  db: Executor,
  subject: Subject,
  id: string,
): Promise<CustomFieldRow | undefined> {
  return visible(db, subject).where('custom_fields.id', '=', id).executeTakeFirst();
}

/** Locks the row for the rest of the transaction (updates and deletes). */
export async function lockVisibleCustomField(
  db: Executor,
  subject: Subject,
  id: string,
): Promise<CustomFieldRow | undefined> {
  return visible(db, subject).where('custom_fields.id', '=', id).forUpdate().executeTakeFirst();
}

export async function listVisibleCustomFields(db: Executor, subject: Subject, params: CustomFieldListParams) {
  let query = visible(db, subject);
  if (params.organization_id !== undefined) {
    query = query.where('custom_fields.organization_id', 'in', params.organization_id);
  }
  if (params.query !== undefined) {
    const pattern = likeContains(params.query);
    query = query.where((eb) =>
      eb.or([eb(sql`custom_fields.name`, 'ilike', pattern), eb(sql`custom_fields.slug`, 'ilike', pattern)]),
    );
  }
  if (params.type !== undefined) query = query.where('custom_fields.type', 'in', params.type);
  for (const sort of params.sorting) {
    query = query.orderBy(`custom_fields.${sort.key}`, sort.descending ? 'desc' : 'asc');
  }
  query = query.orderBy('custom_fields.id');
  return paginate(db, query, params);
}

/** A field of the organization with this slug, deleted ones included (slugs are never reused). */
export async function findCustomFieldBySlug(
  db: Executor,
  organizationId: string,
  slug: string,
): Promise<CustomFieldRow | undefined> {
  return db
    .selectFrom('custom_fields')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where(sql`lower(slug)`, '=', slug.toLowerCase())
    .executeTakeFirst();
}

/**
 * The live fields of one organization among these ids (for modules that attach fields, such as
 * products: an id missing from the result does not exist for that organization).
 */
export async function findLiveCustomFieldsOfOrganization(
  db: Executor,
  organizationId: string,
  ids: readonly string[],
): Promise<CustomFieldRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('custom_fields')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
}

export async function insertCustomField(
  db: Executor,
  row: Omit<CustomFieldRow, 'properties' | 'metadata'> & { properties: unknown; metadata: unknown },
): Promise<CustomFieldRow> {
  return db
    .insertInto('custom_fields')
    .values({ ...row, properties: JSON.stringify(row.properties), metadata: JSON.stringify(row.metadata) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface CustomFieldChanges {
  modified_at: Date;
  name?: string;
  slug?: string;
  properties?: unknown;
  metadata?: unknown;
}

export async function updateCustomField(
  db: Executor,
  id: string,
  changes: CustomFieldChanges,
): Promise<CustomFieldRow> {
  const { properties, metadata, ...plain } = changes;
  return db
    .updateTable('custom_fields')
    .set({
      ...plain,
      ...(properties !== undefined ? { properties: JSON.stringify(properties) } : {}),
      ...(metadata !== undefined ? { metadata: JSON.stringify(metadata) } : {}),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function softDeleteCustomField(db: Executor, id: string, at: Date): Promise<void> {
  await db.updateTable('custom_fields').set({ deleted_at: at }).where('id', '=', id).execute();
}

/**
 * Removes the field from every product it is attached to (`product_custom_fields`, migration 0005 of
 * the products module), as the reference does when a field is deleted.
 */
export async function detachCustomFieldFromProducts(db: Executor, id: string): Promise<void> {
  await sql`DELETE FROM product_custom_fields WHERE custom_field_id = ${id}`.execute(db);
}
