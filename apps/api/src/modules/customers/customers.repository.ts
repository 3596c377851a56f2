import { sql, type SqlBool } from 'kysely';
import type { Selectable } from 'kysely';
import type { ExportCursor } from '../../platform/http/csv.js';
import type { CustomersTable } from '../../db/tables/customers.js';
import type { Executor } from '../../platform/db/database.js';
import { forgetCustomers } from './customers.memo.js';
import { metadataMatches } from '../../platform/db/metadata-filter.js';
import { paginate } from '../../platform/db/paginate.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Subject } from '../../platform/auth/subject.js';
import type { CustomerListParams } from './customers.schemas.js';
import { escapeLike } from '../../platform/db/like.js';

export type CustomerRow = Selectable<CustomersTable>;

/** How a customer is named in a path: by our id or by the seller's external id. */
export type CustomerKey = { id: string } | { externalId: string };

/** Live (not deleted) customers of the organizations the subject may see. */
function visible(db: Executor, subject: Subject) {
  return db
    .selectFrom('customers')
    .selectAll('customers')
    .where('customers.deleted_at', 'is', null)
    .where(organizationVisibleTo(subject, 'customers.organization_id'));
}

function byKey(db: Executor, subject: Subject, key: CustomerKey) {
  const query = visible(db, subject);
  return 'id' in key
    ? query.where('customers.id', '=', key.id)
    : query.where('customers.external_id', '=', key.externalId);
}

/**
 * A batch of the customers export (`GET /v1/customers/export`): the visible live customers, newest
 * first, after `after` (keyset on the instant to the microsecond and the id), `limit` of them.
 */
export async function exportVisibleCustomers(
  db: Executor,
  subject: Subject,
  organizationIds: string[] | undefined,
  after: ExportCursor | undefined,
  limit: number,
) {
  let query = visible(db, subject).select(sql<string>`customers.created_at::text`.as('cursor_at'));
  if (organizationIds?.length) query = query.where('customers.organization_id', 'in', organizationIds);
  if (after) {
    query = query.where(
      sql<SqlBool>`(customers.created_at, customers.id) < (${after.cursor_at}::timestamptz, ${after.id}::uuid)`,
    );
  }
  return query.orderBy('customers.created_at', 'desc').orderBy('customers.id', 'desc').limit(limit).execute();
}

export async function findVisibleCustomer(
  db: Executor,
  subject: Subject,
  key: CustomerKey,
): Promise<CustomerRow | undefined> {
  return byKey(db, subject, key).executeTakeFirst();
}

/** Locks the row for the rest of the transaction (updates and deletes read, check, then write). */
export async function lockVisibleCustomer(
  db: Executor,
  subject: Subject,
  key: CustomerKey,
): Promise<CustomerRow | undefined> {
  return byKey(db, subject, key).forUpdate().executeTakeFirst();
}

export async function listVisibleCustomers(db: Executor, subject: Subject, params: CustomerListParams) {
  let query = visible(db, subject);
  if (params.organization_id) query = query.where('customers.organization_id', 'in', params.organization_id);
  if (params.email !== undefined) query = query.where(sql`lower(customers.email)`, '=', params.email.toLowerCase());
  if (params.query !== undefined && params.query !== '') {
    const term = escapeLike(params.query);
    // As the reference: email and name contain the term, the external id starts with it.
    query = query.where((eb) =>
      eb.or([
        eb('customers.email', 'ilike', `%${term}%`),
        eb('customers.name', 'ilike', `%${term}%`),
        eb('customers.external_id', 'ilike', `${term}%`),
      ]),
    );
  }
  query = query.where(metadataMatches('customers.metadata', params.metadata));
  for (const sort of params.sorting) {
    query = query.orderBy(`customers.${sort.key}`, sort.descending ? 'desc' : 'asc');
  }
  query = query.orderBy('customers.id');
  return paginate(db, query, params);
}

/** A live customer of the organization with this email (case-insensitive), other than `exceptId`. */
export async function findCustomerByEmail(
  db: Executor,
  organizationId: string,
  email: string,
  exceptId?: string,
): Promise<CustomerRow | undefined> {
  let query = db
    .selectFrom('customers')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null)
    .where(sql`lower(email)`, '=', email.toLowerCase());
  if (exceptId) query = query.where('id', '!=', exceptId);
  return query.executeTakeFirst();
}

export async function findCustomerByExternalId(
  db: Executor,
  organizationId: string,
  externalId: string,
): Promise<CustomerRow | undefined> {
  return db
    .selectFrom('customers')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
}

export interface NewCustomer {
  id: string;
  created_at: Date;
  organization_id: string;
  email: string;
  name: string | null;
  external_id: string | null;
  billing_address: unknown;
  tax_id: unknown;
  metadata: unknown;
}

const jsonOrNull = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

export async function insertCustomer(db: Executor, row: NewCustomer): Promise<CustomerRow> {
  return db
    .insertInto('customers')
    .values({
      ...row,
      modified_at: null,
      deleted_at: null,
      email_verified: false,
      billing_address: jsonOrNull(row.billing_address),
      tax_id: jsonOrNull(row.tax_id),
      metadata: JSON.stringify(row.metadata ?? {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface CustomerChanges {
  modified_at: Date;
  email?: string;
  email_verified?: boolean;
  name?: string | null;
  external_id?: string;
  billing_address?: unknown;
  tax_id?: unknown;
  metadata?: unknown;
  deleted_at?: Date;
}

export async function updateCustomer(db: Executor, id: string, changes: CustomerChanges): Promise<CustomerRow> {
  const { billing_address, tax_id, metadata, ...plain } = changes;
  const row = await db
    .updateTable('customers')
    .set({
      ...plain,
      ...(billing_address !== undefined ? { billing_address: jsonOrNull(billing_address) } : {}),
      ...(tax_id !== undefined ? { tax_id: jsonOrNull(tax_id) } : {}),
      ...(metadata !== undefined ? { metadata: JSON.stringify(metadata) } : {}),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  forgetCustomers(db, [id]);
  return row;
}

/** Which unique index a violation came from, as a field name. */
export function uniqueViolationField(error: unknown): 'email' | 'external_id' | undefined {
  const { constraint, message } = (error ?? {}) as { constraint?: string; message?: string };
  const name = constraint ?? message ?? '';
  if (name.includes('customers_organization_email_key')) return 'email';
  if (name.includes('customers_organization_external_id_key')) return 'external_id';
  return undefined;
}

/**
 * Serializes "find the customer with this email, else create one" within an organization until the
 * end of the transaction, so two first purchases with one new email create one customer.
 */
export async function lockCustomerEmail(db: Executor, organizationId: string, email: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`customer:${organizationId}:${email.toLowerCase()}`}, 0))`.execute(
    db,
  );
}
