import type { Selectable } from 'kysely';
import type { IdempotencyKeysTable } from '../../db/tables/idempotency-keys.js';
import type { Executor } from '../db/database.js';

export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;

export interface Claim {
  scope: string;
  key: string;
  requestHash: string;
  now: Date;
  lockedUntil: Date;
  expiresAt: Date;
}

/** Inserts the key as in flight; false when the scope already holds it (nothing changed). */
export async function insertClaim(db: Executor, claim: Claim): Promise<boolean> {
  const row = await db
    .insertInto('idempotency_keys')
    .values({
      scope: claim.scope,
      key: claim.key,
      request_hash: claim.requestHash,
      state: 'in_flight',
      locked_until: claim.lockedUntil,
      created_at: claim.now,
      expires_at: claim.expiresAt,
    })
    .onConflict((conflict) => conflict.columns(['scope', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

export async function findKey(db: Executor, scope: string, key: string): Promise<IdempotencyKeyRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('scope', '=', scope)
    .where('key', '=', key)
    .executeTakeFirst();
}

/**
 * Claims a key whose row is expired, or in flight past its lock with the same request (the request that
 * held it died): one conditional update, so of two concurrent takers one wins.
 */
export async function takeOverClaim(db: Executor, claim: Claim): Promise<boolean> {
  const row = await db
    .updateTable('idempotency_keys')
    .set({
      request_hash: claim.requestHash,
      state: 'in_flight',
      locked_until: claim.lockedUntil,
      response_status: null,
      response_headers: null,
      response_body: null,
      created_at: claim.now,
      expires_at: claim.expiresAt,
    })
    .where('scope', '=', claim.scope)
    .where('key', '=', claim.key)
    .where((eb) =>
      eb.or([
        eb('expires_at', '<=', claim.now),
        eb.and([
          eb('state', '=', 'in_flight'),
          eb('locked_until', '<=', claim.now),
          eb('request_hash', '=', claim.requestHash),
        ]),
      ]),
    )
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

/** The claim's own row: the one it inserted or took over (`created_at` is the claim's time). */
export interface ClaimRef {
  scope: string;
  key: string;
  claimedAt: Date;
}

export async function completeKey(
  db: Executor,
  claim: ClaimRef,
  response: { status: number; headers: Record<string, string>; body: string },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({
      state: 'completed',
      locked_until: null,
      response_status: response.status,
      response_headers: JSON.stringify(response.headers),
      response_body: response.body,
    })
    .where('scope', '=', claim.scope)
    .where('key', '=', claim.key)
    .where('created_at', '=', claim.claimedAt)
    .where('state', '=', 'in_flight')
    .execute();
}

export async function releaseKey(db: Executor, claim: ClaimRef): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('scope', '=', claim.scope)
    .where('key', '=', claim.key)
    .where('created_at', '=', claim.claimedAt)
    .where('state', '=', 'in_flight')
    .execute();
}

export async function deleteExpiredKeys(db: Executor, now: Date): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
