import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProductRowsByIds } from '../src/modules/orders/orders.repository.js';
import { beforeCommit } from '../src/platform/db/commit-hooks.js';
import { memoized, memoizeReadsIn } from '../src/platform/db/read-memo.js';
import type { Db } from '../src/platform/db/database.js';
import { startTestServer, type TestServer } from './harness.js';

let server: TestServer;
let db: Db;
beforeAll(async () => {
  server = await startTestServer({ work: false });
  db = server.runtime.database.db;
  await sql`CREATE TABLE commit_hook_probe (n int NOT NULL)`.execute(db);
});
afterAll(() => server?.stop());

const probe = async () =>
  (await sql<{ n: number }>`SELECT n FROM commit_hook_probe ORDER BY n`.execute(db)).rows.map((row) => row.n);
const write = (executor: Db, n: number) => sql`INSERT INTO commit_hook_probe VALUES (${n})`.execute(executor);

describe('commit hooks', () => {
  it('run in the transaction just before it commits, by phase then registration, once per key', async () => {
    await sql`TRUNCATE commit_hook_probe`.execute(db);
    const seen: string[] = [];
    await db.transaction().execute(async (tx) => {
      expect(await beforeCommit(tx, 'late', 5, async () => void seen.push('late'))).toBe(true);
      await beforeCommit(tx, 'early', 0, async () => {
        seen.push('early');
        // Sees the transaction's own writes, and its write commits with them.
        expect(
          (await sql<{ n: number }>`SELECT count(*)::int AS n FROM commit_hook_probe`.execute(tx)).rows[0]!.n,
        ).toBe(1);
        await write(tx, 2);
        // A hook may register another; it runs in this commit too.
        await beforeCommit(tx, 'added', 1, async () => void seen.push('added'));
      });
      await beforeCommit(tx, 'early', 0, async () => void seen.push('early again'));
      await write(tx, 1);
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(['early', 'added', 'late']);
    expect(await probe()).toEqual([1, 2]);
  });

  it('are dropped with a transaction that rolls back, and never run on a later one of the connection', async () => {
    await sql`TRUNCATE commit_hook_probe`.execute(db);
    let ran = 0;
    await expect(
      db.transaction().execute(async (tx) => {
        await beforeCommit(tx, 'k', 0, async () => void ran++);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    // Every connection of the pool commits a transaction of its own: none runs the dropped hook.
    await Promise.all(Array.from({ length: 10 }, (_, i) => db.transaction().execute((tx) => write(tx, i))));
    expect(ran).toBe(0);
    expect(await probe()).toHaveLength(10);
  });

  it('roll the transaction back when one fails', async () => {
    await sql`TRUNCATE commit_hook_probe`.execute(db);
    await expect(
      db.transaction().execute(async (tx) => {
        await write(tx, 1);
        await beforeCommit(tx, 'k', 0, async () => {
          throw new Error('hook failed');
        });
      }),
    ).rejects.toThrow('hook failed');
    expect(await probe()).toEqual([]);
  });

  it('are not registered outside a transaction (the caller does the work at once)', async () => {
    expect(await beforeCommit(db, 'k', 0, async () => {})).toBe(false);
  });
});

describe('memoized reads', () => {
  it('are made once in a transaction that memoizes them, every time elsewhere', async () => {
    let reads = 0;
    const read = async () => ({ n: ++reads });
    const memoizing = await db.transaction().execute(async (tx) => {
      memoizeReadsIn(tx);
      const first = await memoized(tx, 'k', read);
      const again = await memoized(tx, 'k', read);
      const other = await memoized(tx, 'other', read);
      return { first, again, other };
    });
    expect(memoizing.again).toBe(memoizing.first);
    expect(memoizing.other.n).toBe(2);
    const plain = await db
      .transaction()
      .execute(async (tx) => [await memoized(tx, 'k', read), await memoized(tx, 'k', read)]);
    expect(plain.map((answer) => answer.n)).toEqual([3, 4]);
    // The pool is no transaction: it never memoizes.
    memoizeReadsIn(db);
    expect((await memoized(db, 'k', read)).n).toBe(5);
    expect((await memoized(db, 'k', read)).n).toBe(6);
  });

  it('keep a product read by id for the rest of a memoizing transaction', async () => {
    const { idsKey } = await import('../src/platform/db/read-memo.js');
    expect(idsKey('x', ['b', 'a', 'b'])).toBe('x:a,b');
    await db.transaction().execute(async (tx) => {
      memoizeReadsIn(tx);
      const id = '00000000-0000-4000-8000-000000000000';
      const first = await findProductRowsByIds(tx, [id]);
      expect(await findProductRowsByIds(tx, [id])).toBe(first);
    });
  });
});
