import type { CompiledQuery, Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../../db/schema.js';
import type { Executor } from './database.js';
import { anyUuid, compiler as builder, prepared } from './prepared.js';

function recorder() {
  const sent: CompiledQuery[] = [];
  const executor = {
    executeQuery: async (query: CompiledQuery) => {
      sent.push(query);
      return { rows: [{ id: 'row' }] };
    },
  } as unknown as Executor;
  return { sent, executor };
}

const session = (db: Kysely<DB>, tokenHash: string, now: Date) =>
  db
    .selectFrom('user_sessions')
    .select(['id', 'user_id'])
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', now)
    .where('id', '!=', 'a constant');

describe('prepared', () => {
  it("sends the builder's SQL with each call's values in their places, constants kept", async () => {
    const statement = prepared(2, session);
    const { sent, executor } = recorder();
    const first = new Date('2026-01-01T00:00:00Z');
    const second = new Date('2026-02-01T00:00:00Z');
    expect(await statement(executor, 'hash-1', first)).toEqual([{ id: 'row' }]);
    await statement(executor, 'hash-2', second);
    const expected = session(builder, 'hash-2', second).compile();
    expect(sent[1]!.sql).toBe(expected.sql);
    expect(sent[0]!.parameters).toEqual(['hash-1', first, 'a constant']);
    expect(sent[1]!.parameters).toEqual(expected.parameters);
  });

  it('refuses a statement that does not use every argument as a value', async () => {
    const statement = prepared(2, (db, id: string, _unused: string) =>
      db.selectFrom('users').select('id').where('id', '=', id),
    );
    await expect(statement(recorder().executor, 'id', 'unused')).rejects.toThrow('uses 1 of its 2 arguments');
  });

  it('sends a list of ids as one array value: one text whatever its length', async () => {
    const statement = prepared(1, (db, ids: readonly string[]) =>
      db.selectFrom('products').select('id').where('id', '=', anyUuid(ids)),
    );
    const { sent, executor } = recorder();
    await statement(executor, ['a']);
    await statement(executor, ['a', 'b', 'c']);
    expect(sent[0]!.sql).toBe(sent[1]!.sql);
    expect(sent[0]!.sql).toContain('= any($1::uuid[])');
    expect(sent.map((query) => query.parameters)).toEqual([[['a']], [['a', 'b', 'c']]]);
  });
});
