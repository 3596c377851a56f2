import { sql, type Selectable } from 'kysely';
import type { LicenseKeyActivationsTable, LicenseKeysTable, LicenseKeyStatus } from '../../db/tables/benefit-grants.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { paginate } from '../../platform/db/paginate.js';
import type { LicenseKeyListParams, PortalLicenseKeyListParams } from './license-keys.schemas.js';

export type LicenseKeyRow = Selectable<LicenseKeysTable>;
export type LicenseKeyActivationRow = Selectable<LicenseKeyActivationsTable>;

function visible(db: Executor, subject: Subject) {
  return db
    .selectFrom('license_keys')
    .selectAll('license_keys')
    .where('license_keys.deleted_at', 'is', null)
    .where(organizationVisibleTo(subject, 'license_keys.organization_id'));
}

export async function findVisibleLicenseKey(db: Executor, subject: Subject, id: string, lock = false) {
  let query = visible(db, subject).where('license_keys.id', '=', id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Ordered `created_at ASC`, as the reference. */
export async function listVisibleLicenseKeys(db: Executor, subject: Subject, params: LicenseKeyListParams) {
  let query = visible(db, subject);
  if (params.organization_id?.length) query = query.where('license_keys.organization_id', 'in', params.organization_id);
  if (params.benefit_id?.length) query = query.where('license_keys.benefit_id', 'in', params.benefit_id);
  query = query.orderBy('license_keys.created_at').orderBy('license_keys.id');
  return paginate(db, query, params);
}

/**
 * Validate, activate and deactivate find a key by an exact, case-sensitive match on (organization,
 * key), locked for the rest of the transaction: concurrent activations of one key take turns, so the
 * limit holds. The public calls find any organization's key; with `readableBy`, only a key of an
 * organization that subject may see (the organization's own calls).
 */
export async function lockLicenseKeyByKey(
  db: Executor,
  organizationId: string,
  key: string,
  readableBy?: Subject,
): Promise<LicenseKeyRow | undefined> {
  let query = db
    .selectFrom('license_keys')
    .selectAll()
    .where('license_keys.organization_id', '=', organizationId)
    .where('license_keys.key', '=', key)
    .where('license_keys.deleted_at', 'is', null);
  if (readableBy) query = query.where(organizationVisibleTo(readableBy, 'license_keys.organization_id'));
  return query.forUpdate().executeTakeFirst();
}

export async function findLicenseKeyById(db: Executor, id: string, lock = false) {
  let query = db.selectFrom('license_keys').selectAll().where('id', '=', id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function insertLicenseKey(
  db: Executor,
  row: Omit<LicenseKeyRow, 'modified_at' | 'deleted_at' | 'usage' | 'validations' | 'last_validated_at'>,
): Promise<LicenseKeyRow> {
  return db
    .insertInto('license_keys')
    .values({ ...row, modified_at: null, deleted_at: null, usage: 0, validations: 0, last_validated_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface LicenseKeyChanges {
  modified_at: Date;
  status?: LicenseKeyStatus;
  usage?: number;
  limit_activations?: number | null;
  limit_usage?: number | null;
  expires_at?: Date | null;
  validations?: number;
  last_validated_at?: Date;
}

export async function updateLicenseKey(db: Executor, id: string, changes: LicenseKeyChanges): Promise<LicenseKeyRow> {
  return db.updateTable('license_keys').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Live (not deactivated) activations of a key, oldest first. */
export async function findLiveActivations(db: Executor, licenseKeyId: string): Promise<LicenseKeyActivationRow[]> {
  return db
    .selectFrom('license_key_activations')
    .selectAll()
    .where('license_key_id', '=', licenseKeyId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findLiveActivation(db: Executor, licenseKeyId: string, id: string) {
  return db
    .selectFrom('license_key_activations')
    .selectAll()
    .where('license_key_id', '=', licenseKeyId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function countLiveActivations(db: Executor, licenseKeyId: string): Promise<number> {
  const row = await db
    .selectFrom('license_key_activations')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('license_key_id', '=', licenseKeyId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertActivation(
  db: Executor,
  row: { id: string; created_at: Date; license_key_id: string; label: string; conditions: unknown; meta: unknown },
): Promise<LicenseKeyActivationRow> {
  return db
    .insertInto('license_key_activations')
    .values({
      ...row,
      modified_at: null,
      deleted_at: null,
      conditions: JSON.stringify(row.conditions),
      meta: JSON.stringify(row.meta),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function softDeleteActivation(db: Executor, id: string, at: Date): Promise<void> {
  await db
    .updateTable('license_key_activations')
    .set({ deleted_at: at, modified_at: at })
    .where('id', '=', id)
    .execute();
}

/**
 * Counts one call in the current one-second window of `bucket` and returns the count (the first call
 * of a new window resets it to 1). One statement, so concurrent calls on any API node count exactly.
 */
export async function hitRateWindow(db: Executor, bucket: string, windowStart: Date): Promise<number> {
  const result = await sql<{ hits: number }>`
    INSERT INTO license_key_rate_windows (bucket, window_start, hits)
    VALUES (${bucket}, ${windowStart}, 1)
    ON CONFLICT (bucket) DO UPDATE SET
      hits = CASE WHEN license_key_rate_windows.window_start = EXCLUDED.window_start
                  THEN license_key_rate_windows.hits + 1 ELSE 1 END,
      window_start = EXCLUDED.window_start
    RETURNING hits`.execute(db);
  return Number(result.rows[0]!.hits);
}

export async function findCustomersByIds(db: Executor, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, Selectable<import('../../db/tables/customers.js').CustomersTable>>();
  const rows = await db
    .selectFrom('customers')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** What a customer portal session sees: its own customer's keys (no subject sees another's). */
function ownedByCustomer(db: Executor, subject: Subject) {
  const customerId = subject.kind === 'customer' ? subject.customerId : null;
  let query = db.selectFrom('license_keys').selectAll('license_keys').where('license_keys.deleted_at', 'is', null);
  query = customerId ? query.where('license_keys.customer_id', '=', customerId) : query.where(sql<boolean>`false`);
  return query;
}

export async function listCustomerLicenseKeys(db: Executor, subject: Subject, params: PortalLicenseKeyListParams) {
  let query = ownedByCustomer(db, subject);
  if (params.organization_id?.length) query = query.where('license_keys.organization_id', 'in', params.organization_id);
  if (params.benefit_id) query = query.where('license_keys.benefit_id', '=', params.benefit_id);
  query = query.orderBy('license_keys.created_at').orderBy('license_keys.id');
  return paginate(db, query, params);
}

export async function findCustomerLicenseKey(db: Executor, subject: Subject, id: string) {
  return ownedByCustomer(db, subject).where('license_keys.id', '=', id).executeTakeFirst();
}

export async function findBenefitProperties(db: Executor, benefitId: string): Promise<unknown> {
  const row = await db.selectFrom('benefits').select('properties').where('id', '=', benefitId).executeTakeFirst();
  return row?.properties;
}
