import { describe, expect, it } from 'vitest';
import type { Executor } from './database.js';
import { forgetPerId, handOut, memoizedPerId, memoizeReadsIn, takeHandedOut } from './read-memo.js';

/** Stand-ins for a transaction and a plain pool: the memo only looks at `isTransaction`. */
const transaction = () => ({ isTransaction: true }) as unknown as Executor;
const pool = () => ({ isTransaction: false }) as unknown as Executor;

function countingRead() {
  const calls: string[][] = [];
  const read = memoizedPerId('things', async (_db, ids) => {
    calls.push([...ids]);
    return new Map(ids.map((id) => [id, `thing ${id}`]));
  });
  return { calls, read };
}

describe('memoizedPerId', () => {
  it('reads every id each time outside a memoizing transaction', async () => {
    const { calls, read } = countingRead();
    const db = transaction();
    await read(db, ['a']);
    await read(db, ['a']);
    const plain = pool();
    memoizeReadsIn(plain);
    await read(plain, ['a']);
    expect(calls).toEqual([['a'], ['a'], ['a']]);
  });

  it('in a memoizing transaction, reads only the ids not read yet, in one call', async () => {
    const { calls, read } = countingRead();
    const db = transaction();
    memoizeReadsIn(db);
    expect(await read(db, ['a', 'b', 'a'])).toEqual(
      new Map([
        ['a', 'thing a'],
        ['b', 'thing b'],
      ]),
    );
    expect(await read(db, ['b'])).toEqual(new Map([['b', 'thing b']]));
    expect(await read(db, ['c', 'a'])).toEqual(
      new Map([
        ['c', 'thing c'],
        ['a', 'thing a'],
      ]),
    );
    expect(calls).toEqual([['a', 'b'], ['c']]);
    // Another transaction has its own memo.
    const other = transaction();
    memoizeReadsIn(other);
    await read(other, ['a']);
    expect(calls).toEqual([['a', 'b'], ['c'], ['a']]);
  });

  it('leaves out ids the read did not answer, and reads again the ids forgotten after a change', async () => {
    const calls: string[][] = [];
    const read = memoizedPerId('rows', async (_db, ids) => {
      calls.push([...ids]);
      return new Map(ids.filter((id) => id !== 'gone').map((id) => [id, { id, version: calls.length }]));
    });
    const db = transaction();
    memoizeReadsIn(db);
    const first = await read(db, ['a', 'gone']);
    expect([...first.keys()]).toEqual(['a']);
    forgetPerId(db, 'rows', ['a']);
    expect((await read(db, ['a'])).get('a')).toEqual({ id: 'a', version: 2 });
    expect((await read(db, ['a'])).get('a')).toEqual({ id: 'a', version: 2 });
    expect(calls).toEqual([['a', 'gone'], ['a']]);
  });

  it('a failed read is not kept: the next asks again', async () => {
    let fail = true;
    const read = memoizedPerId('flaky', async (_db, ids) => {
      if (fail) throw new Error('lost connection');
      return new Map(ids.map((id) => [id, id.toUpperCase()]));
    });
    const db = transaction();
    memoizeReadsIn(db);
    await expect(read(db, ['x'])).rejects.toThrow('lost connection');
    fail = false;
    expect(await read(db, ['x'])).toEqual(new Map([['x', 'X']]));
  });
});

describe('handOut / takeHandedOut', () => {
  it('hands each row to its first reader only, in its own transaction', () => {
    const db = transaction();
    handOut(db, 'subscription', [
      ['s1', { id: 's1' }],
      ['s2', { id: 's2' }],
    ]);
    expect(takeHandedOut(db, 'subscription', 's1')).toEqual({ id: 's1' });
    // Taken: a later read (after the taker's changes) reads the row itself.
    expect(takeHandedOut(db, 'subscription', 's1')).toBeUndefined();
    expect(takeHandedOut(db, 'customer', 's2')).toBeUndefined();
    expect(takeHandedOut(transaction(), 'subscription', 's2')).toBeUndefined();
    expect(takeHandedOut(db, 'subscription', 's2')).toEqual({ id: 's2' });
  });

  it('hands nothing out outside a transaction (no lock would hold the rows)', () => {
    const db = pool();
    handOut(db, 'subscription', [['s1', { id: 's1' }]]);
    expect(takeHandedOut(db, 'subscription', 's1')).toBeUndefined();
  });
});
