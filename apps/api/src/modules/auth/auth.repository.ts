import type { Insertable, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { UserSessionsTable, UsersTable } from '../../db/tables/foundation.js';
import type { Executor } from '../../platform/db/database.js';
import { prepared } from '../../platform/db/prepared.js';

export type UserRow = Selectable<UsersTable>;

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUser(db: Executor, row: Insertable<UsersTable>): Promise<UserRow> {
  return db.insertInto('users').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function insertSession(db: Executor, row: Insertable<UserSessionsTable>): Promise<void> {
  await db.insertInto('user_sessions').values(row).execute();
}

// Sent by every dashboard request: compiled once (platform/db/prepared.ts).
const liveSessionByHash = prepared(2, (db, tokenHash: string, now: Date) =>
  db
    .selectFrom('user_sessions')
    .select(['id', 'user_id'])
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', now),
);

export async function findLiveSessionByHash(db: Executor, tokenHash: string, now: Date) {
  const [row] = await liveSessionByHash(db, tokenHash, now);
  return row;
}

export async function deleteSession(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('user_sessions').where('id', '=', id).execute();
}
