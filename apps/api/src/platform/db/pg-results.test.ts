import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { addFields, pgAddFields } from './pg-results.js';

type Row = Record<string, unknown>;
const Result = (pg as unknown as { Result: new (rowMode?: string) => { parseRow(data: unknown[]): Row } }).Result;

/** A row of `data` for `fields`, with the given way of adding the fields. */
function rowOf(add: typeof addFields, fields: { name: string; dataTypeID: number }[], data: (string | null)[]) {
  const result = new Result();
  add.call(result as never, fields);
  return result.parseRow(data);
}

const TEXT = 25;
const INT4 = 23;
const BOOL = 16;
const TIMESTAMPTZ = 1184;

describe("pg's results, built the faster way", () => {
  it('makes the same rows as pg: the same own properties in the same order, values and prototype', () => {
    const cases: [{ name: string; dataTypeID: number }[], (string | null)[]][] = [
      [[], []],
      [
        [
          { name: 'id', dataTypeID: TEXT },
          { name: 'amount', dataTypeID: INT4 },
          { name: 'paid', dataTypeID: BOOL },
          { name: 'at', dataTypeID: TIMESTAMPTZ },
        ],
        ['a', '42', 't', '2026-12-03 10:00:00+00'],
      ],
      // Forty columns, some null; a name twice (the later value wins, as in pg).
      [
        [
          ...Array.from({ length: 40 }, (_, i) => ({ name: `c${i}`, dataTypeID: TEXT })),
          { name: 'c3', dataTypeID: INT4 },
        ],
        [...Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? null : `v${i}`)), '7'],
      ],
      // Names an ordinary object treats apart: left to pg's own way.
      [
        [
          { name: '__proto__', dataTypeID: TEXT },
          { name: 'constructor', dataTypeID: TEXT },
        ],
        ['x', 'y'],
      ],
      [
        [
          { name: 'constructor', dataTypeID: TEXT },
          { name: 'toString', dataTypeID: TEXT },
        ],
        ['x', null],
      ],
    ];
    for (const [fields, data] of cases) {
      const ours = rowOf(addFields, fields, data);
      const theirs = rowOf(pgAddFields as typeof addFields, fields, data);
      expect(Reflect.ownKeys(ours)).toEqual(Reflect.ownKeys(theirs));
      expect(Object.getPrototypeOf(ours)).toBe(Object.getPrototypeOf(theirs));
      for (const key of Reflect.ownKeys(theirs)) {
        expect(Object.getOwnPropertyDescriptor(ours, key)).toEqual(Object.getOwnPropertyDescriptor(theirs, key));
      }
    }
  });

  it('is what pg uses', () => {
    expect((pg as unknown as { Result: { prototype: { addFields: unknown } } }).Result.prototype.addFields).toBe(
      addFields,
    );
  });
});
