import { sql, type Insertable, type Selectable } from 'kysely';
import type { EmailsTable } from '../../db/tables/webhooks.js';
import type { Executor } from '../db/database.js';
import { memoized } from '../db/read-memo.js';

export type EmailRow = Selectable<EmailsTable>;

export type OrganizationForMail = NonNullable<Awaited<ReturnType<typeof findOrganizationForMail>>>;

export function findOrganizationForMail(db: Executor, organizationId: string) {
  return memoized(db, `findOrganizationForMail:${organizationId}`, () =>
    db
      .selectFrom('organizations')
      .select(['id', 'name', 'slug', 'customer_email_settings'])
      .where('id', '=', organizationId)
      .executeTakeFirst(),
  );
}

export async function emailOfKindExists(db: Executor, organizationId: string, kind: string): Promise<boolean> {
  const row = await db
    .selectFrom('emails')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertEmailRows(db: Executor, rows: readonly Insertable<EmailsTable>[]): Promise<void> {
  if (rows.length > 0)
    await db
      .insertInto('emails')
      .values([...rows])
      .execute();
}

/**
 * Claims one pending email for sending: `id`'s when given, else the oldest due one. The row is locked
 * with SKIP LOCKED (a row another sender is claiming is passed over, never waited for) and taken only
 * when no live lease is on it; the lease then keeps it while it is sent with no transaction open.
 */
export async function claimEmail(
  db: Executor,
  input: { id?: string; now: Date; leaseUntil: Date },
): Promise<EmailRow | undefined> {
  const candidate = db
    .selectFrom('emails')
    .select('id')
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('sending_until', 'is', null), eb('sending_until', '<', input.now)]))
    .$if(input.id !== undefined, (query) => query.where('id', '=', input.id!))
    .$if(input.id === undefined, (query) =>
      query.where('next_attempt_at', '<=', input.now).orderBy('next_attempt_at').orderBy('id'),
    )
    .limit(1)
    .forUpdate()
    .skipLocked();
  return db
    .updateTable('emails')
    .set({ sending_until: input.leaseUntil, attempts: sql<number>`attempts + 1` })
    .where('id', '=', (eb) => eb.selectFrom(candidate.as('c')).select('c.id'))
    .returningAll()
    .executeTakeFirst();
}

/** Marks a claimed email sent; false when it is no longer pending (sent or given up already). */
export async function markEmailSent(db: Executor, id: string, at: Date, transport: string): Promise<boolean> {
  const result = await db
    .updateTable('emails')
    .set({ status: 'sent', sent_at: at, transport, sending_until: null, next_attempt_at: null, last_error: null })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Records a failed attempt: due again at `nextAttemptAt`, or failed for good when that is null. */
export async function markEmailAttemptFailed(
  db: Executor,
  id: string,
  input: { error: string; nextAttemptAt: Date | null },
): Promise<void> {
  await db
    .updateTable('emails')
    .set({
      status: input.nextAttemptAt ? 'pending' : 'failed',
      next_attempt_at: input.nextAttemptAt,
      sending_until: null,
      last_error: input.error.slice(0, 1000),
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** How many emails are due (the sweep sends at most a batch and enqueues itself again when more wait). */
export async function countDueEmails(db: Executor, now: Date): Promise<number> {
  const row = await db
    .selectFrom('emails')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('sending_until', 'is', null), eb('sending_until', '<', now)]))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export interface EmailListFilter {
  organizationId?: string;
  organizationSlug?: string;
  limit: number;
  offset: number;
}

/** Newest first: the outbox as the CLI and the development page show it. */
export async function listEmails(db: Executor, filter: EmailListFilter) {
  let query = db.selectFrom('emails').leftJoin('organizations as o', 'o.id', 'emails.organization_id');
  if (filter.organizationId) query = query.where('emails.organization_id', '=', filter.organizationId);
  if (filter.organizationSlug) query = query.where('o.slug', '=', filter.organizationSlug);
  const items = await query
    .selectAll('emails')
    .select('o.slug as organization_slug')
    .orderBy('emails.created_at', 'desc')
    .orderBy('emails.id', 'desc')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  const total = await query.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
  return { items, total: Number(total.count) };
}

export async function findOrganizationName(db: Executor, organizationId: string): Promise<string | undefined> {
  const row = await db.selectFrom('organizations').select('name').where('id', '=', organizationId).executeTakeFirst();
  return row?.name;
}

export async function findCustomerContact(db: Executor, customerId: string) {
  return db.selectFrom('customers').select(['email', 'name']).where('id', '=', customerId).executeTakeFirst();
}

/** The refunded order of the organization, with its product's name. */
export async function findOrderForRefundEmail(db: Executor, organizationId: string, orderId: string) {
  return db
    .selectFrom('orders as o')
    .leftJoin('products as p', 'p.id', 'o.product_id')
    .select(['o.id', 'o.customer_id', 'p.name as product_name'])
    .where('o.id', '=', orderId)
    .where('o.organization_id', '=', organizationId)
    .executeTakeFirst();
}
