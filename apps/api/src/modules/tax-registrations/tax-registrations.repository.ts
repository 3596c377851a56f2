import type { Selectable } from 'kysely';
import type { TaxRegistrationsTable } from '../../db/tables/tax.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { paginate } from '../../platform/db/paginate.js';
import type { TaxRegistrationListParams } from './tax-registrations.schemas.js';

export type TaxRegistrationRow = Selectable<TaxRegistrationsTable>;

function visible(db: Executor, subject: Subject) {
  return db
    .selectFrom('tax_registrations')
    .selectAll('tax_registrations')
    .where(organizationVisibleTo(subject, 'tax_registrations.organization_id'));
}

export async function findVisibleTaxRegistration(db: Executor, subject: Subject, id: string) {
  return visible(db, subject).where('tax_registrations.id', '=', id).executeTakeFirst();
}

export async function lockVisibleTaxRegistration(db: Executor, subject: Subject, id: string) {
  return visible(db, subject).where('tax_registrations.id', '=', id).forUpdate().executeTakeFirst();
}

export async function listVisibleTaxRegistrations(db: Executor, subject: Subject, params: TaxRegistrationListParams) {
  let query = visible(db, subject);
  if (params.organization_id?.length)
    query = query.where('tax_registrations.organization_id', 'in', params.organization_id);
  query = query.orderBy('tax_registrations.country').orderBy('tax_registrations.state').orderBy('tax_registrations.id');
  return paginate(db, query, params);
}

/** Inserts unless the place is taken; undefined when it is (the unique index decides, race-free). */
export async function insertTaxRegistration(db: Executor, row: TaxRegistrationRow) {
  return db
    .insertInto('tax_registrations')
    .values(row)
    .onConflict((conflict) => conflict.columns(['organization_id', 'country', 'state']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function updateTaxRegistration(
  db: Executor,
  id: string,
  changes: { rate_basis_points?: number; label?: string; modified_at: Date },
) {
  return db.updateTable('tax_registrations').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteTaxRegistration(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('tax_registrations').where('id', '=', id).execute();
}
