import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { OrganizationAccessTokensTable } from '../../db/tables/foundation.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { paginate } from '../../platform/db/paginate.js';
import { prepared } from '../../platform/db/prepared.js';
import type { OrganizationAccessTokenListParams } from './organization-access-tokens.schemas.js';

export type OrganizationAccessTokenRow = Selectable<OrganizationAccessTokensTable>;

function visible(db: Executor, subject: Subject) {
  return db
    .selectFrom('organization_access_tokens')
    .selectAll('organization_access_tokens')
    .where('organization_access_tokens.deleted_at', 'is', null)
    .where(organizationVisibleTo(subject, 'organization_access_tokens.organization_id'));
}

export async function insertOrganizationAccessToken(
  db: Executor,
  row: Insertable<OrganizationAccessTokensTable>,
): Promise<OrganizationAccessTokenRow> {
  return db.insertInto('organization_access_tokens').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findVisibleOrganizationAccessToken(db: Executor, subject: Subject, id: string) {
  return visible(db, subject).where('organization_access_tokens.id', '=', id).executeTakeFirst();
}

export async function listVisibleOrganizationAccessTokens(
  db: Executor,
  subject: Subject,
  params: OrganizationAccessTokenListParams,
) {
  let query = visible(db, subject);
  if (params.organization_id)
    query = query.where('organization_access_tokens.organization_id', 'in', params.organization_id);
  for (const sort of params.sorting) {
    query = query.orderBy(`organization_access_tokens.${sort.key}`, (ob) =>
      sort.descending ? ob.desc().nullsLast() : ob.asc().nullsFirst(),
    );
  }
  return paginate(db, query.orderBy('organization_access_tokens.id'), params);
}

export async function updateOrganizationAccessTokenRow(
  db: Executor,
  id: string,
  changes: { modified_at: Date; comment?: string; scopes?: string[]; deleted_at?: Date },
): Promise<OrganizationAccessTokenRow> {
  return db
    .updateTable('organization_access_tokens')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Live tokens with this hash: not revoked, not expired, their organization not deleted. */
function liveTokens(db: Kysely<DB>, tokenHash: string, now: Date) {
  return db
    .selectFrom('organization_access_tokens as t')
    .innerJoin('organizations as o', 'o.id', 't.organization_id')
    .where('t.token_hash', '=', tokenHash)
    .where('t.deleted_at', 'is', null)
    .where('o.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('t.expires_at', 'is', null), eb('t.expires_at', '>', now)]));
}

/**
 * A token's scopes as one space-separated text: PostgreSQL's array text form costs a parse of each
 * element on every request (about a tenth of the server's CPU on `GET /v1/organizations/{id}` with a
 * token holding every scope), where a split of the same few distinct values is cached.
 */
const scopesText = sql<string>`array_to_string(t.scopes, ' ')`;

// Sent by every request with an organization token: compiled once (platform/db/prepared.ts).
const liveTokenByHash = prepared(2, (db, tokenHash: string, now: Date) =>
  liveTokens(db, tokenHash, now).select(['t.id', 't.organization_id', scopesText.as('scopes'), 't.last_used_at']),
);

// The same, with the organization's row (route.ts readsTokenOrganization).
const liveTokenWithOrganizationByHash = prepared(2, (db, tokenHash: string, now: Date) =>
  liveTokens(db, tokenHash, now)
    .selectAll('o')
    .select(['t.id as token_id', scopesText.as('token_scopes'), 't.last_used_at as token_last_used_at']),
);

/** Distinct scope texts seen (tokens share a few): each split once. Emptied when it grows past its bound. */
const scopeSets = new Map<string, ReadonlySet<string>>();
const SCOPE_SETS_KEPT = 1024;

function scopeSetOf(text: string): ReadonlySet<string> {
  let set = scopeSets.get(text);
  if (!set) {
    if (scopeSets.size >= SCOPE_SETS_KEPT) scopeSets.clear();
    set = new Set(text.split(' ').filter(Boolean));
    scopeSets.set(text, set);
  }
  return set;
}

export interface LiveToken {
  id: string;
  organization_id: string;
  /** Shared between the requests of tokens with the same scopes: never to be changed. */
  scopes: ReadonlySet<string>;
  last_used_at: Date | null;
}

/**
 * The token behind a bearer value, if it is live: not revoked, not expired, its organization not deleted.
 * Read on every request (never cached), so a revocation counts at once on every node.
 */
export async function findLiveTokenByHash(db: Executor, tokenHash: string, now: Date): Promise<LiveToken | undefined> {
  const [row] = await liveTokenByHash(db, tokenHash, now);
  return row && { ...row, scopes: scopeSetOf(row.scopes) };
}

/** findLiveTokenByHash, and the token's organization as it is now, in the same statement. */
export async function findLiveTokenWithOrganization(db: Executor, tokenHash: string, now: Date) {
  const [row] = await liveTokenWithOrganizationByHash(db, tokenHash, now);
  if (!row) return undefined;
  const { token_id, token_scopes, token_last_used_at, ...organization } = row;
  const token: LiveToken = {
    id: token_id,
    organization_id: organization.id,
    scopes: scopeSetOf(token_scopes),
    last_used_at: token_last_used_at,
  };
  return { token, organization };
}

export async function touchOrganizationAccessToken(db: Executor, id: string, at: Date): Promise<void> {
  await db.updateTable('organization_access_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
}
