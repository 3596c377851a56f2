import { describe, expect, it } from 'vitest';
import {
  aggregate,
  creditedUnits,
  creditsOf,
  countsFor,
  matchesFilter,
  meterUsage,
  meterBalance,
  nonNegativeRunningSum,
  rolloverUnits,
  windowOf,
  type FilterClause,
  type MeterAggregation,
  type MeterDefinition,
  type MeterEvent,
  type MeterFilter,
} from './customer-meters.window.js';

const METER = '6f1c1a52-3b0b-4a57-8f4e-0d2b0e6f9a11';
const OTHER_METER = '0b7a4f53-1f3e-4c39-9a1b-5d3f8e2c7b22';
const T0 = Date.parse('2025-06-01T12:00:00Z');

/** A user event; `at` is its ingestion time in seconds after T0 (the timestamp is 2025-06-01T12:00:00Z). */
function user(metadata: Record<string, unknown> = {}, at = 0, name = 'api.call'): MeterEvent {
  return { name, source: 'user', timestamp: new Date(T0), ingested_at: new Date(T0 + at * 1000), metadata };
}

function credited(units: number, at = 0, rollover = false, meterId = METER): MeterEvent {
  return {
    name: 'meter.credited',
    source: 'system',
    timestamp: new Date(T0 + at * 1000),
    ingested_at: new Date(T0 + at * 1000),
    metadata: { meter_id: meterId, units, rollover },
  };
}

function reset(at: number, meterId = METER): MeterEvent {
  return {
    name: 'meter.reset',
    source: 'system',
    timestamp: new Date(T0 + at * 1000),
    ingested_at: new Date(T0 + at * 1000),
    metadata: { meter_id: meterId },
  };
}

const clause = (property: string, operator: FilterClause['operator'], value: FilterClause['value']) => ({
  conjunction: 'and' as const,
  clauses: [{ property, operator, value }],
});

describe('matchesFilter', () => {
  const event = user(
    {
      model: 'gpt-4o',
      tokens: 120,
      ratio: 1.5,
      premium: true,
      trial: false,
      nothing: null,
      nested: { plan: 'pro', id: 2 },
      list: [1, 'a'],
      path: 'a_b%c',
      code: '5',
      letter: 't',
    },
    0,
    'llm.completion',
  );
  const epoch = T0 / 1000;

  const cases: [string, FilterClause['operator'], FilterClause['value'], boolean][] = [
    // string metadata: compared as text, every operator
    ['model', 'eq', 'gpt-4o', true],
    ['model', 'eq', 'GPT-4o', false],
    ['model', 'ne', 'gpt-4o', false],
    ['model', 'ne', 'claude', true],
    ['model', 'gt', 'gpt-3', true],
    ['model', 'gt', 'gpt-4o', false],
    ['model', 'gte', 'gpt-4o', true],
    ['model', 'lt', 'gpt-5', true],
    ['model', 'lt', 'gpt-4o', false],
    ['model', 'lte', 'gpt-4o', true],
    ['model', 'like', 'pt-4', true],
    ['model', 'like', 'PT', false],
    ['model', 'not_like', 'pt-4', false],
    ['model', 'not_like', 'claude', true],
    // a `metadata.` prefix addresses the same key
    ['metadata.model', 'eq', 'gpt-4o', true],
    // a number compared with a string property is compared as text, a boolean as t/f
    ['code', 'eq', 5, true],
    ['code', 'gt', 40, true],
    ['letter', 'eq', true, true],
    ['letter', 'eq', false, false],
    // number metadata: compared only with an integer value
    ['tokens', 'eq', 120, true],
    ['tokens', 'ne', 120, false],
    ['tokens', 'gt', 100, true],
    ['tokens', 'gt', 120, false],
    ['tokens', 'gte', 120, true],
    ['tokens', 'lt', 121, true],
    ['tokens', 'lt', 120, false],
    ['tokens', 'lte', 120, true],
    ['tokens', 'eq', '120', false],
    ['tokens', 'eq', true, false],
    ['ratio', 'gt', 1, true],
    ['ratio', 'lt', 1, false],
    // number metadata under LIKE: its text form
    ['tokens', 'like', '12', true],
    ['tokens', 'like', 12, true],
    ['tokens', 'not_like', '12', false],
    ['ratio', 'like', '1.5', true],
    // boolean metadata: compared only with a boolean value; false < true
    ['premium', 'eq', true, true],
    ['premium', 'eq', false, false],
    ['premium', 'ne', false, true],
    ['premium', 'gt', false, true],
    ['premium', 'gte', true, true],
    ['trial', 'lt', true, true],
    ['trial', 'lte', false, true],
    ['premium', 'eq', 'true', false],
    ['premium', 'eq', 1, false],
    // boolean metadata under LIKE: 'true'/'false' against the value's text (t/f for a boolean)
    ['premium', 'like', true, true],
    ['premium', 'like', 'ru', true],
    ['trial', 'like', true, false],
    ['trial', 'like', false, true],
    ['trial', 'not_like', 'ru', true],
    // missing keys, JSON null, objects and arrays match no comparison
    ['absent', 'eq', 'x', false],
    ['absent', 'ne', 'x', false],
    ['absent', 'like', 'x', false],
    ['absent', 'not_like', 'x', false],
    ['nothing', 'eq', 'null', false],
    ['nothing', 'not_like', 'x', false],
    ['nested', 'eq', 'pro', false],
    ['nested.plan', 'eq', 'pro', false],
    ['list', 'ne', 'x', false],
    // ...but LIKE reads their jsonb text form
    ['nested', 'like', '"plan": "pro"', true],
    ['nested', 'like', '{"id": 2, "plan": "pro"}', true],
    ['nested', 'like', '{"plan": "pro", "id": 2}', false],
    ['list', 'like', '[1, "a"]', true],
    // LIKE keeps its wildcards: _ is one character, % any run, \ escapes
    ['model', 'like', 'g_t', true],
    ['model', 'like', 'g%o', true],
    ['model', 'like', 'g_o', false],
    ['path', 'like', 'a\\_b\\%c', true],
    ['model', 'like', 'g\\_t', false],
    // name and source columns take strings only
    ['name', 'eq', 'llm.completion', true],
    ['name', 'ne', 'llm.completion', false],
    ['name', 'like', 'completion', true],
    ['name', 'not_like', 'completion', false],
    ['name', 'gt', 'llm.a', true],
    ['name', 'lte', 'llm.a', false],
    ['name', 'eq', 1, false],
    ['name', 'eq', true, false],
    ['source', 'eq', 'user', true],
    ['source', 'eq', 'system', false],
    ['source', 'like', 'se', true],
    ['metadata.name', 'eq', 'llm.completion', true],
    // timestamp compares as epoch seconds with an integer value only
    ['timestamp', 'eq', epoch, true],
    ['timestamp', 'ne', epoch, false],
    ['timestamp', 'gt', epoch - 1, true],
    ['timestamp', 'gte', epoch, true],
    ['timestamp', 'lt', epoch, false],
    ['timestamp', 'lte', epoch, true],
    ['timestamp', 'eq', String(epoch), false],
    ['timestamp', 'gt', true, false],
    ['timestamp', 'like', '17', false],
    ['timestamp', 'not_like', '17', false],
  ];

  it.each(cases)('%s %s %j → %s', (property, operator, value, expected) => {
    expect(matchesFilter(clause(property, operator, value), event)).toBe(expected);
  });

  it('compares a timestamp with its fraction of a second', () => {
    const late = { ...event, timestamp: new Date(T0 + 500) };
    expect(matchesFilter(clause('timestamp', 'eq', epoch), late)).toBe(false);
    expect(matchesFilter(clause('timestamp', 'gt', epoch), late)).toBe(true);
  });

  it('compares text in byte order, whatever the locale', () => {
    const accented = user({ word: 'éclair' });
    expect(matchesFilter(clause('word', 'gt', 'zebra'), accented)).toBe(true);
    expect(matchesFilter(clause('word', 'gt', 'Zebra'), user({ word: 'apple' }))).toBe(true);
  });

  const yes = { property: 'model', operator: 'eq' as const, value: 'gpt-4o' };
  const no = { property: 'model', operator: 'eq' as const, value: 'claude' };
  const conjunctions: [string, MeterFilter, boolean][] = [
    ['empty and', { conjunction: 'and', clauses: [] }, true],
    ['empty or', { conjunction: 'or', clauses: [] }, true],
    ['and of true, true', { conjunction: 'and', clauses: [yes, yes] }, true],
    ['and of true, false', { conjunction: 'and', clauses: [yes, no] }, false],
    ['or of true, false', { conjunction: 'or', clauses: [no, yes] }, true],
    ['or of false, false', { conjunction: 'or', clauses: [no, no] }, false],
    ['and with a nested or', { conjunction: 'and', clauses: [yes, { conjunction: 'or', clauses: [no, yes] }] }, true],
    ['or with a nested and', { conjunction: 'or', clauses: [no, { conjunction: 'and', clauses: [yes, no] }] }, false],
    [
      'and with an empty nested filter',
      { conjunction: 'and', clauses: [yes, { conjunction: 'or', clauses: [] }] },
      true,
    ],
  ];

  it.each(conjunctions)('%s', (_, filter, expected) => {
    expect(matchesFilter(filter, event)).toBe(expected);
  });
});

describe('aggregate', () => {
  const events = [
    user({ tokens: 10 }),
    user({ tokens: 2.5 }),
    user({ tokens: 30 }),
    user({ tokens: '1000' }),
    user({ tokens: true }),
    user({ other: 7 }),
  ];
  const cases: [MeterAggregation, MeterEvent[], number][] = [
    [{ func: 'count' }, events, 6],
    [{ func: 'count' }, [], 0],
    [{ func: 'sum', property: 'tokens' }, events, 42.5],
    [{ func: 'sum', property: 'metadata.tokens' }, events, 42.5],
    [{ func: 'max', property: 'tokens' }, events, 30],
    [{ func: 'min', property: 'tokens' }, events, 2.5],
    [{ func: 'avg', property: 'tokens' }, events, 42.5 / 3],
    [{ func: 'max', property: 'tokens' }, [user({ tokens: -4 }), user({ tokens: -9 })], -4],
    [{ func: 'sum', property: 'tokens' }, [], 0],
    [{ func: 'avg', property: 'tokens' }, [user({ tokens: 'x' })], 0],
    [{ func: 'min', property: 'absent' }, events, 0],
    [{ func: 'sum', property: 'name' }, events, 0],
    // NaN and the infinities are not JSON, but a caller may hand them over: they are not quantities.
    [{ func: 'sum', property: 'tokens' }, [user({ tokens: NaN }), user({ tokens: Infinity }), user({ tokens: 4 })], 4],
    [{ func: 'max', property: 'tokens' }, [user({ tokens: -Infinity }), user({ tokens: 1 })], 1],
    // unique: distinct values of any JSON type; 1 and "1" differ, a missing key or null does not count.
    [{ func: 'unique', property: 'tokens' }, events, 5],
    [{ func: 'unique', property: 'user' }, [user({ user: 'a' }), user({ user: 'a' }), user({ user: 'b' })], 2],
    [{ func: 'unique', property: 'metadata.user' }, [user({ user: 1 }), user({ user: '1' }), user({ user: null })], 2],
    [{ func: 'unique', property: 'user' }, [], 0],
  ];

  it.each(cases)('%j over %# → %d', (aggregation, list, expected) => {
    expect(aggregate(aggregation, list)).toBeCloseTo(expected, 10);
  });
});

describe('windowOf', () => {
  it('keeps every event, in ingestion order, when the meter was never reset', () => {
    const a = user({}, 20);
    const b = credited(100, 10);
    const c = user({}, 30);
    expect(windowOf([a, b, c], METER)).toEqual([b, a, c]);
  });

  it('starts at the latest reset of the meter, the reset and its instant included', () => {
    const before = user({}, 5);
    const first = reset(10);
    const between = credited(100, 15);
    const latest = reset(20);
    const sameInstant = credited(50, 20);
    const after = user({}, 25);
    expect(windowOf([before, first, between, latest, sameInstant, after], METER)).toEqual([latest, sameInstant, after]);
  });

  it("ignores another meter's resets", () => {
    const a = user({}, 5);
    const b = reset(10, OTHER_METER);
    const c = user({}, 15);
    expect(windowOf([a, b, c], METER)).toEqual([a, b, c]);
  });

  it('orders one instant as the reset, then credits before debits', () => {
    const debit = credited(-100, 10);
    const usage = user({}, 10);
    const credit = credited(100, 10);
    const opening = reset(10);
    expect(windowOf([debit, usage, credit, opening], METER)).toEqual([opening, credit, usage, debit]);
  });
});

describe('creditedUnits', () => {
  const cases: [string, MeterEvent[], number][] = [
    ['no credits', [], 0],
    ['credits add up', [credited(100), credited(50, 1)], 150],
    ['a revoke takes back a credit', [credited(100), credited(-100, 1)], 0],
    ['a debit beyond the credits floors at zero', [credited(-100), credited(30, 1)], 30],
    ['the floor applies as it runs', [credited(20), credited(-50, 1), credited(10, 2)], 10],
    ['other events are ignored', [credited(10), reset(1), user({ units: 99 }, 2)], 10],
  ];
  it.each(cases)('%s', (_, events, expected) => {
    expect(creditedUnits(events)).toBe(expected);
  });

  it('nonNegativeRunningSum never drops below zero', () => {
    expect(nonNegativeRunningSum([5, -10, 3, -1])).toBe(2);
  });
});

describe('meterBalance', () => {
  const meter: MeterDefinition = {
    id: METER,
    filter: clause('model', 'eq', 'gpt-4o'),
    aggregation: { func: 'sum', property: 'tokens' },
  };

  it("counts the user events that pass the filter and the meter's credits", () => {
    const window = [
      reset(0),
      credited(100, 1),
      user({ model: 'gpt-4o', tokens: 30 }, 2),
      user({ model: 'gpt-4o', tokens: 12.5 }, 3),
      user({ model: 'claude', tokens: 1000 }, 4),
      user({ model: 'gpt-4o', tokens: 'many' }, 5),
      credited(1000, 6, false, OTHER_METER),
    ];
    expect(meterBalance(meter, window)).toEqual({ consumed_units: 42.5, credited_units: 100, balance: 57.5 });
  });

  it('goes negative past the credits', () => {
    const window = [credited(10), user({ model: 'gpt-4o', tokens: 25 }, 1)];
    expect(meterBalance(meter, window)).toEqual({ consumed_units: 25, credited_units: 10, balance: -15 });
  });

  it('ignores system events that happen to pass the filter', () => {
    const system = { ...user({ model: 'gpt-4o', tokens: 5 }), source: 'system' as const };
    expect(meterBalance(meter, [system])).toEqual({ consumed_units: 0, credited_units: 0, balance: 0 });
  });
});

describe('rolloverUnits', () => {
  const c = (units: number, rollover = true) => ({ units, rollover });
  const cases: [string, { units: number; rollover: boolean }[], number, number][] = [
    ['no credits', [], 0, 0],
    ['unused rollover credits carry over', [c(100)], 40, 60],
    ['all of them when unused', [c(100)], 0, 100],
    ['nothing when usage passes the credits', [c(100)], 150, 0],
    ['non-rollover credits never carry over', [c(100, false)], 0, 0],
    ['usage spends both kinds alike, capped by the rollover credits', [c(100, false), c(50)], 30, 50],
    ['what is left below the rollover credits carries over', [c(100, false), c(50)], 120, 30],
    ['fractional usage rounds the carried units down', [c(10)], 2.5, 7],
    ['a revoked rollover credit carries nothing', [c(100), c(-100)], 0, 0],
    ['a debit before any credit floors at zero', [c(-50), c(100)], 10, 90],
    ['a revoked non-rollover credit leaves only the rollover credits', [c(80, false), c(-80, false), c(20)], 5, 15],
    ['an earlier rollover adds to the rollover credits', [c(30), c(100)], 50, 80],
  ];
  it.each(cases)('%s', (_, credits, usage, expected) => {
    expect(rolloverUnits(credits, usage)).toBe(expected);
  });

  it('reads the credits of a window with their rollover flag', () => {
    const window = [reset(0), credited(30, 0, true), credited(100, 0), credited(5, 1, true, OTHER_METER)];
    expect(creditsOf(window, METER)).toEqual([
      { units: 30, rollover: true },
      { units: 100, rollover: false },
    ]);
  });
});

describe('countsFor', () => {
  const meter = (aggregation: MeterAggregation): MeterDefinition => ({
    id: METER,
    filter: { conjunction: 'and', clauses: [] },
    aggregation,
  });
  const cases: [MeterAggregation, MeterEvent, boolean][] = [
    [{ func: 'count' }, user({}), true],
    [{ func: 'sum', property: 'tokens' }, user({ tokens: 3 }), true],
    [{ func: 'sum', property: 'tokens' }, user({ tokens: '3' }), false],
    [{ func: 'sum', property: 'tokens' }, user({ tokens: NaN }), false],
    [{ func: 'unique', property: 'user' }, user({ user: 'a' }), true],
    [{ func: 'unique', property: 'user' }, user({}), false],
    [{ func: 'count' }, credited(5), false],
  ];
  it.each(cases)('%j, %j → %s', (aggregation, event, expected) => {
    expect(countsFor(meter(aggregation), event)).toBe(expected);
  });
});

describe('meterUsage', () => {
  const meter: MeterDefinition = {
    id: METER,
    filter: { conjunction: 'and', clauses: [] },
    aggregation: { func: 'sum', property: 'tokens' },
  };
  const at = (iso: string, event: MeterEvent): MeterEvent => ({ ...event, timestamp: new Date(iso) });
  const events = [
    at('2025-05-31T23:59:59Z', user({ tokens: 100 })),
    at('2025-06-01T00:00:00Z', user({ tokens: 1 })),
    at('2025-06-15T00:00:00Z', user({ tokens: 2 })),
    at('2025-06-30T23:59:59Z', user({ tokens: 4 })),
    at('2025-07-01T00:00:00Z', user({ tokens: 1000 })),
    at('2025-06-02T00:00:00Z', credited(10, 1)),
    at('2025-06-03T00:00:00Z', credited(-25, 2)),
    at('2025-06-04T00:00:00Z', credited(3, 3)),
    at('2025-06-04T00:00:00Z', credited(50, 4, false, OTHER_METER)),
  ];
  const june = { start: new Date('2025-06-01T00:00:00Z'), end: new Date('2025-07-01T00:00:00Z') };
  const cases: [string, { start: Date; end: Date }, { consumed_units: number; credited_units: number }][] = [
    ['June: start inclusive, end exclusive; credits floor at 0', june, { consumed_units: 7, credited_units: 3 }],
    [
      'an empty period',
      { start: new Date('2025-08-01T00:00:00Z'), end: new Date('2025-09-01T00:00:00Z') },
      { consumed_units: 0, credited_units: 0 },
    ],
    [
      'May 31 only',
      { start: new Date('2025-05-31T00:00:00Z'), end: june.start },
      { consumed_units: 100, credited_units: 0 },
    ],
  ];
  it.each(cases)('%s', (_label, period, expected) => {
    expect(meterUsage(meter, events, period)).toEqual(expected);
  });
});
