import type { Insertable, Selectable } from 'kysely';
import type { OAuthConnectStatesTable } from '../../db/tables/oauth-accounts.js';
import type { Executor } from '../../platform/db/database.js';

export type ConnectStateRow = Selectable<OAuthConnectStatesTable>;

export async function insertConnectState(db: Executor, row: Insertable<OAuthConnectStatesTable>): Promise<void> {
  await db.insertInto('oauth_connect_states').values(row).execute();
}

/** A state still usable: not used and not expired. */
export async function findOpenConnectState(
  db: Executor,
  hash: string,
  now: Date,
): Promise<ConnectStateRow | undefined> {
  return db
    .selectFrom('oauth_connect_states')
    .selectAll()
    .where('state_hash', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Marks the state used, once: a second use (a replay, or two tabs racing) finds nothing. */
export async function useConnectState(db: Executor, hash: string, now: Date): Promise<ConnectStateRow | undefined> {
  return db
    .updateTable('oauth_connect_states')
    .set({ used_at: now })
    .where('state_hash', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteStaleConnectStates(db: Executor, before: Date): Promise<void> {
  await db.deleteFrom('oauth_connect_states').where('expires_at', '<', before).execute();
}
