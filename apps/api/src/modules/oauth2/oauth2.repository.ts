import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';

/** All SQL of the authorization server: clients, the library's store, signing keys. */

export interface StoredClient {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  client_id: string;
  /** HMAC-SHA256(server secret, client secret): the secret itself is shown once and never stored. */
  client_secret_hash: string | null;
  client_id_issued_at: number;
  user_id: string | null;
  metadata: ClientMetadata;
}

export interface ClientMetadata {
  redirect_uris: string[];
  token_endpoint_auth_method: 'client_secret_basic' | 'client_secret_post' | 'none';
  grant_types: ('authorization_code' | 'refresh_token')[];
  response_types: string[];
  scope: string;
  client_name: string;
  client_uri: string | null;
  logo_uri: string | null;
  tos_uri: string | null;
  policy_uri: string | null;
}

function toClient(row: {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  client_id: string;
  client_secret_hash: string | null;
  client_id_issued_at: string;
  user_id: string | null;
  metadata: unknown;
}): StoredClient {
  return { ...row, client_id_issued_at: Number(row.client_id_issued_at), metadata: row.metadata as ClientMetadata };
}

const CLIENT_COLUMNS = [
  'id',
  'created_at',
  'modified_at',
  'client_id',
  'client_secret_hash',
  'client_id_issued_at',
  'user_id',
  'metadata',
] as const;

export async function findClientByClientId(db: Db, clientId: string): Promise<StoredClient | undefined> {
  const row = await db
    .selectFrom('oauth2_clients')
    .select(CLIENT_COLUMNS)
    .where('client_id', '=', clientId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row && toClient(row);
}

export async function findClientByRegistrationToken(
  db: Db,
  clientId: string,
  tokenHash: string,
): Promise<StoredClient | undefined> {
  const row = await db
    .selectFrom('oauth2_clients')
    .select(CLIENT_COLUMNS)
    .where('client_id', '=', clientId)
    .where('registration_access_token_hash', '=', tokenHash)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row && toClient(row);
}

export async function listClientsOfUser(
  db: Db,
  userId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: StoredClient[]; total: number }> {
  const base = db.selectFrom('oauth2_clients').where('user_id', '=', userId).where('deleted_at', 'is', null);
  const [rows, count] = await Promise.all([
    base
      .select(CLIENT_COLUMNS)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toClient), total: Number(count.n) };
}

export async function insertClient(
  db: Db,
  values: {
    id: string;
    now: Date;
    clientId: string;
    clientSecretHash: string;
    registrationTokenHash: string;
    userId: string | null;
    metadata: ClientMetadata;
  },
): Promise<StoredClient> {
  const row = await db
    .insertInto('oauth2_clients')
    .values({
      id: values.id,
      created_at: values.now,
      client_id: values.clientId,
      client_secret_hash: values.clientSecretHash,
      client_id_issued_at: Math.floor(values.now.getTime() / 1000),
      registration_access_token_hash: values.registrationTokenHash,
      user_id: values.userId,
      metadata: JSON.stringify(values.metadata),
    })
    .returning(CLIENT_COLUMNS)
    .executeTakeFirstOrThrow();
  return toClient(row);
}

export async function updateClient(
  db: Db,
  id: string,
  values: { now: Date; metadata?: ClientMetadata; clientSecretHash?: string },
): Promise<StoredClient> {
  const row = await db
    .updateTable('oauth2_clients')
    .set({
      modified_at: values.now,
      ...(values.metadata ? { metadata: JSON.stringify(values.metadata) } : {}),
      ...(values.clientSecretHash ? { client_secret_hash: values.clientSecretHash } : {}),
    })
    .where('id', '=', id)
    .returning(CLIENT_COLUMNS)
    .executeTakeFirstOrThrow();
  return toClient(row);
}

/**
 * Secrets issued before migration 0037 were kept as issued; each is replaced by its keyed hash (the
 * database cannot compute it: the server secret is not in it). Run at every start; a second run, or
 * two nodes starting together, find nothing left to do.
 */
export async function hashLegacyClientSecrets(db: Db, hash: (secret: string) => string): Promise<number> {
  const rows = await db
    .selectFrom('oauth2_clients')
    .select(['id', 'legacy_client_secret'])
    .where('legacy_client_secret', 'is not', null)
    .execute();
  for (const row of rows) {
    await db
      .updateTable('oauth2_clients')
      .set({ client_secret_hash: hash(row.legacy_client_secret!), legacy_client_secret: null })
      .where('id', '=', row.id)
      .where('legacy_client_secret', '=', row.legacy_client_secret)
      .execute();
  }
  return rows.length;
}

export async function softDeleteClient(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable('oauth2_clients').set({ deleted_at: now }).where('id', '=', id).execute();
}

// ---- the library's store -------------------------------------------------------------------------

export interface StoreRow {
  payload: Record<string, unknown>;
  consumed_at: Date | null;
}

export async function upsertStored(
  db: Db,
  values: {
    model: string;
    idHash: string;
    payload: Record<string, unknown>;
    grantId: string | null;
    uid: string | null;
    clientId: string | null;
    accountId: string | null;
    expiresAt: Date | null;
  },
): Promise<void> {
  await db
    .insertInto('oauth2_store')
    .values({
      model: values.model,
      id_hash: values.idHash,
      payload: JSON.stringify(values.payload),
      grant_id: values.grantId,
      uid: values.uid,
      client_id: values.clientId,
      account_id: values.accountId,
      expires_at: values.expiresAt,
    })
    .onConflict((oc) =>
      oc.columns(['model', 'id_hash']).doUpdateSet({
        payload: JSON.stringify(values.payload),
        grant_id: values.grantId,
        uid: values.uid,
        client_id: values.clientId,
        account_id: values.accountId,
        expires_at: values.expiresAt,
      }),
    )
    .execute();
}

export async function findStored(
  db: Db,
  model: string,
  where: { idHash: string } | { uid: string },
  now: Date,
): Promise<StoreRow | undefined> {
  let query = db
    .selectFrom('oauth2_store')
    .select(['payload', 'consumed_at'])
    .where('model', '=', model)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  query = 'idHash' in where ? query.where('id_hash', '=', where.idHash) : query.where('uid', '=', where.uid);
  const row = await query.executeTakeFirst();
  return row && { payload: row.payload as Record<string, unknown>, consumed_at: row.consumed_at };
}

export async function consumeStored(db: Db, model: string, idHash: string, now: Date): Promise<void> {
  await db
    .updateTable('oauth2_store')
    .set({ consumed_at: now })
    .where('model', '=', model)
    .where('id_hash', '=', idHash)
    .execute();
}

export async function destroyStored(db: Db, model: string, idHash: string): Promise<void> {
  await db.deleteFrom('oauth2_store').where('model', '=', model).where('id_hash', '=', idHash).execute();
}

export async function destroyStoredByGrant(db: Db, model: string, grantId: string): Promise<void> {
  await db.deleteFrom('oauth2_store').where('model', '=', model).where('grant_id', '=', grantId).execute();
}

/** Records the refresh token issued with an access token (both keyed hashes). */
export async function linkAccessTokenToRefresh(db: Db, accessHash: string, refreshHash: string): Promise<void> {
  await db
    .updateTable('oauth2_store')
    .set({ refresh_hash: refreshHash })
    .where('model', '=', 'AccessToken')
    .where('id_hash', '=', accessHash)
    .execute();
}

/** Revokes the access token issued with a refresh token (by the refresh token's keyed hash). */
export async function destroyAccessTokensOfRefresh(db: Db, refreshHash: string): Promise<void> {
  await db
    .deleteFrom('oauth2_store')
    .where('model', '=', 'AccessToken')
    .where('refresh_hash', '=', refreshHash)
    .execute();
}

/** A live access token by its keyed hash (API authentication): unexpired, never consumed. */
export async function findLiveAccessToken(
  db: Db,
  idHash: string,
  now: Date,
): Promise<{ accountId: string; scope: string; clientId: string } | undefined> {
  const row = await db
    .selectFrom('oauth2_store')
    .select(['payload'])
    .where('model', '=', 'AccessToken')
    .where('id_hash', '=', idHash)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  const payload = row.payload as { accountId?: string; scope?: string; clientId?: string; exp?: number };
  if (!payload.accountId || !payload.clientId) return undefined;
  if (typeof payload.exp === 'number' && payload.exp * 1000 <= now.getTime()) return undefined;
  return { accountId: payload.accountId, scope: payload.scope ?? '', clientId: payload.clientId };
}

/** The grants a user gave (as themselves or for one of their organizations), with their clients. */
export async function listGrantsOfUser(
  db: Db,
  userId: string,
  now: Date,
): Promise<{ grantId: string; payload: Record<string, unknown> }[]> {
  const rows = await db
    .selectFrom('oauth2_store')
    .select(['grant_id', 'payload'])
    .where('model', '=', 'Grant')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .where((eb) =>
      eb.or([
        eb('account_id', '=', userId),
        eb(
          'account_id',
          'in',
          eb
            .selectFrom('user_organizations')
            .select(sql<string>`organization_id::text`.as('organization_id'))
            .where('user_id', '=', userId),
        ),
      ]),
    )
    .execute();
  return rows.map((row) => ({ grantId: row.grant_id!, payload: row.payload as Record<string, unknown> }));
}

/** A grant and everything issued under it (codes, access and refresh tokens). */
export async function revokeGrant(db: Db, grantId: string): Promise<void> {
  await db.deleteFrom('oauth2_store').where('grant_id', '=', grantId).execute();
}

export async function deleteExpiredStored(db: Db, now: Date): Promise<void> {
  await db.deleteFrom('oauth2_store').where('expires_at', '<', now).execute();
}

// ---- subjects ------------------------------------------------------------------------------------

export async function findUserForClaims(db: Db, id: string): Promise<{ id: string; email: string } | undefined> {
  return db.selectFrom('users').select(['id', 'email']).where('id', '=', id).executeTakeFirst();
}

export async function findOrganizationForClaims(
  db: Db,
  id: string,
): Promise<{ id: string; slug: string; avatar_url: string | null } | undefined> {
  return db
    .selectFrom('organizations')
    .select(['id', 'slug', 'avatar_url'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function listOrganizationsOfUser(
  db: Db,
  userId: string,
): Promise<{ id: string; slug: string; avatar_url: string | null }[]> {
  return db
    .selectFrom('organizations')
    .innerJoin('user_organizations', 'user_organizations.organization_id', 'organizations.id')
    .select(['organizations.id', 'organizations.slug', 'organizations.avatar_url'])
    .where('user_organizations.user_id', '=', userId)
    .where('organizations.deleted_at', 'is', null)
    .orderBy('organizations.created_at')
    .execute();
}

// ---- signing keys --------------------------------------------------------------------------------

export async function listSigningKeys(
  db: Db,
): Promise<{ kid: string; retired_at: Date | null; private_jwk: unknown }[]> {
  return db
    .selectFrom('oauth2_signing_keys')
    .select(['kid', 'retired_at', 'private_jwk'])
    .orderBy('created_at', 'desc')
    .orderBy('kid')
    .execute();
}

/** The keys without their private parts: enough to tell whether the published set changed. */
export async function listSigningKeyIds(db: Db): Promise<{ kid: string; retired_at: Date | null }[]> {
  return db
    .selectFrom('oauth2_signing_keys')
    .select(['kid', 'retired_at'])
    .orderBy('created_at', 'desc')
    .orderBy('kid')
    .execute();
}

/**
 * Adds the new current key; the previous ones are retired (still published until their ID tokens
 * have expired) and keys retired for over a week are dropped. The caller's transaction, if any.
 */
export async function insertSigningKey(db: Db, values: { kid: string; now: Date; privateJwk: object }): Promise<void> {
  await db
    .deleteFrom('oauth2_signing_keys')
    .where('retired_at', '<', new Date(values.now.getTime() - 7 * 86_400_000))
    .execute();
  await db.updateTable('oauth2_signing_keys').set({ retired_at: values.now }).where('retired_at', 'is', null).execute();
  await db
    .insertInto('oauth2_signing_keys')
    .values({ kid: values.kid, created_at: values.now, private_jwk: JSON.stringify(values.privateJwk) })
    .execute();
}
