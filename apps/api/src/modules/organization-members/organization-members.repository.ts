import { sql, type Insertable, type Selectable } from 'kysely';
import type { OrganizationInvitesTable } from '../../db/tables/foundation.js';
import type { Executor } from '../../platform/db/database.js';
import { paginate } from '../../platform/db/paginate.js';
import type { PageParams } from '../../platform/http/query.js';

export type MemberRole = 'owner' | 'member';
export type InviteRow = Selectable<OrganizationInvitesTable>;

export interface MemberRow {
  user_id: string;
  organization_id: string;
  created_at: Date;
  role: MemberRole;
  email: string;
}

function members(db: Executor, organizationId: string) {
  return db
    .selectFrom('user_organizations')
    .innerJoin('users', 'users.id', 'user_organizations.user_id')
    .select([
      'user_organizations.user_id',
      'user_organizations.organization_id',
      'user_organizations.created_at',
      'user_organizations.role',
      'users.email',
    ])
    .where('user_organizations.organization_id', '=', organizationId);
}

/** Members of an organization the caller may see (the service found the organization first). */
export async function listMembersPage(db: Executor, organizationId: string, params: PageParams) {
  const query = members(db, organizationId)
    .orderBy('user_organizations.created_at')
    .orderBy('user_organizations.user_id');
  return paginate(db, query, params);
}

/** Every member, oldest first (a handful; read under the organization's row lock by writes). */
export async function listAllMembers(db: Executor, organizationId: string): Promise<MemberRow[]> {
  return members(db, organizationId)
    .orderBy('user_organizations.created_at')
    .orderBy('user_organizations.user_id')
    .execute();
}

export async function findMemberByEmail(
  db: Executor,
  organizationId: string,
  email: string,
): Promise<MemberRow | undefined> {
  return members(db, organizationId)
    .where(sql`lower(users.email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

export async function insertMembership(
  db: Executor,
  row: { organization_id: string; user_id: string; created_at: Date; role: MemberRole },
): Promise<void> {
  await db
    .insertInto('user_organizations')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function deleteMembership(db: Executor, organizationId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('user_organizations')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
}

export async function setMemberRole(
  db: Executor,
  organizationId: string,
  userId: string,
  role: MemberRole,
): Promise<void> {
  await db
    .updateTable('user_organizations')
    .set({ role })
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
}

// ---- invitations ----

/** Invitations neither accepted nor revoked (expired ones included: the page shows them as such). */
export async function listOpenInvitesPage(db: Executor, organizationId: string, params: PageParams) {
  const query = db
    .selectFrom('organization_invites')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id');
  return paginate(db, query, params);
}

export async function findOpenInvite(db: Executor, organizationId: string, id: string): Promise<InviteRow | undefined> {
  return db
    .selectFrom('organization_invites')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Revokes the open invitation of this address, if any (a new invitation replaces it). */
export async function revokeOpenInvitesOf(db: Executor, organizationId: string, email: string, at: Date) {
  await db
    .updateTable('organization_invites')
    .set({ revoked_at: at, modified_at: at })
    .where('organization_id', '=', organizationId)
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeInvite(db: Executor, id: string, at: Date): Promise<void> {
  await db.updateTable('organization_invites').set({ revoked_at: at, modified_at: at }).where('id', '=', id).execute();
}

/**
 * When the latest `limit` invitations created since `since` were sent, newest first (the organization's,
 * or one inviter's); the rate limit of invitations reads it under the organization's row lock.
 */
export async function recentInviteTimes(
  db: Executor,
  organizationId: string,
  since: Date,
  limit: number,
  inviterId?: string,
): Promise<Date[]> {
  let query = db
    .selectFrom('organization_invites')
    .select('created_at')
    .where('organization_id', '=', organizationId)
    .where('created_at', '>', since);
  if (inviterId) query = query.where('invited_by_user_id', '=', inviterId);
  const rows = await query.orderBy('created_at', 'desc').limit(limit).execute();
  return rows.map((row) => row.created_at);
}

export async function insertInvite(db: Executor, row: Insertable<OrganizationInvitesTable>): Promise<InviteRow> {
  return db.insertInto('organization_invites').values(row).returningAll().executeTakeFirstOrThrow();
}

/** The invitation a link carries, with its organization's public face; locked when accepting. */
export async function findInviteByTokenHash(db: Executor, tokenHash: string, options: { lock: boolean }) {
  let query = db
    .selectFrom('organization_invites as i')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .selectAll('i')
    .select(['o.name as organization_name', 'o.slug as organization_slug'])
    .where('i.token_hash', '=', tokenHash)
    .where('o.deleted_at', 'is', null);
  if (options.lock) query = query.forUpdate('i');
  return query.executeTakeFirst();
}

export async function markInviteAccepted(db: Executor, id: string, userId: string, at: Date): Promise<void> {
  await db
    .updateTable('organization_invites')
    .set({ accepted_at: at, accepted_by_user_id: userId, modified_at: at })
    .where('id', '=', id)
    .execute();
}
