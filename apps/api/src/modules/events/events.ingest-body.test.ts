import { describe, expect, it } from 'vitest';
import { safeParseInput } from '../../platform/http/validation.js';
import { parseIngestBodyFast } from './events.ingest-body.js';
import { EventsIngest } from './events.schemas.js';

const CUSTOMER = '0195f0b4-3c1e-7a2b-8c3d-4e5f60718293';
const ORGANIZATION = '11111111-2222-4333-8444-555555555555';

const valid: unknown[] = [
  { events: [] },
  { events: [{ name: 'api.call', customer_id: CUSTOMER }] },
  { events: [{ name: 'a', external_customer_id: 'x' }] },
  {
    events: [
      {
        name: 'llm.completion',
        external_customer_id: 'customer-1',
        external_id: 'http-1',
        timestamp: '2026-01-15T12:00:00.123Z',
        metadata: { plan: 'pro', tokens: 1200, ratio: 0.5, negative: -3, cached: false, model: 'small' },
      },
      { name: 'api.call', customer_id: CUSTOMER, timestamp: '2026-01-15T12:00:00+02:00', metadata: {} },
      { name: 'x'.repeat(128), customer_id: CUSTOMER, organization_id: null },
      { name: 'x', customer_id: CUSTOMER, organization_id: ORGANIZATION },
      { name: 'x', customer_id: CUSTOMER, organization_id: undefined, timestamp: undefined, metadata: undefined },
      { name: 'x', external_customer_id: 'e'.repeat(500), external_id: 'i'.repeat(500) },
      { name: 'x', customer_id: CUSTOMER, metadata: { ['k'.repeat(40)]: 'v'.repeat(500) } },
      {
        name: 'x',
        customer_id: CUSTOMER,
        metadata: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])),
      },
      { name: 'x', customer_id: CUSTOMER, timestamp: '2024-02-29T00:00:00Z' },
      { name: 'x', customer_id: '00000000-0000-0000-0000-000000000000' },
      { name: 'x', customer_id: CUSTOMER, parent_id: 'run-1' },
      { name: 'x', customer_id: CUSTOMER, parent_id: CUSTOMER },
      { name: 'x', customer_id: CUSTOMER, parent_id: null },
      { name: 'x', customer_id: CUSTOMER, parent_id: 'p'.repeat(500) },
    ],
  },
];

/** Each is refused by the schema; the fast path must hand it over (undefined), never answer a value. */
const refused: unknown[] = [
  null,
  [],
  'events',
  {},
  { events: {} },
  { events: [null] },
  { events: [[]] },
  { events: [{}] },
  { events: [{ name: 'x' }] },
  { events: [{ name: '', customer_id: CUSTOMER }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, parent_id: '' }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, parent_id: 'p'.repeat(501) }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, parent_id: 7 }] },
  { events: [{ name: 'x'.repeat(129), customer_id: CUSTOMER }] },
  { events: [{ name: 3, customer_id: CUSTOMER }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, external_customer_id: 'e' }] },
  { events: [{ name: 'x', customer_id: 'not-a-uuid' }] },
  { events: [{ name: 'x', customer_id: null }] },
  { events: [{ name: 'x', external_customer_id: '' }] },
  { events: [{ name: 'x', external_customer_id: 'e'.repeat(501) }] },
  { events: [{ name: 'x', external_customer_id: 'e', external_id: '' }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, organization_id: 'nope' }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, timestamp: '2026-01-15T12:00:00' }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, timestamp: '2026-02-30T12:00:00Z' }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, timestamp: 1_700_000_000 }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, metadata: [] }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, metadata: null }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, metadata: { a: '' } }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, metadata: { a: 'v'.repeat(501) } }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, metadata: { '': 1 } }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, metadata: { ['k'.repeat(41)]: 1 } }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, metadata: { a: null } }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, metadata: { a: { b: 1 } } }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, metadata: { a: [1] } }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, metadata: { a: Infinity } }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, metadata: { a: NaN } }] },
  {
    events: [
      {
        name: 'x',
        customer_id: CUSTOMER,
        metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])),
      },
    ],
  },
  { events: [{ name: 'bad\u0000name', customer_id: CUSTOMER }] },
  { events: [{ name: 'x', customer_id: CUSTOMER, metadata: { a: 'lone \uD800' } }] },
  { events: [{ name: 'ok', customer_id: CUSTOMER }, { name: '' }] },
];

/** Accepted by the schema but left to it (it strips unknown keys; surrogate pairs are checked by the full parse). */
const handedOver: unknown[] = [
  { events: [], extra: true },
  { events: [{ name: 'x', customer_id: CUSTOMER, source: 'system' }] },
  { events: [{ name: 'emoji \uD83D\uDE00', customer_id: CUSTOMER }] },
];

describe('parseIngestBodyFast', () => {
  it.each(valid.map((body, i) => [i, body]))('answers what the schema answers (valid body %i)', (_, body) => {
    const expected = safeParseInput(EventsIngest, body);
    expect(expected.success).toBe(true);
    expect(parseIngestBodyFast(body)).toStrictEqual(expected.data);
  });

  it.each(refused.map((body, i) => [i, body]))('hands a refused body to the schema (%i)', (_, body) => {
    expect(safeParseInput(EventsIngest, body).success).toBe(false);
    expect(parseIngestBodyFast(body)).toBeUndefined();
  });

  it.each(handedOver.map((body, i) => [i, body]))('hands unusual bodies to the schema (%i)', (_, body) => {
    expect(safeParseInput(EventsIngest, body).success).toBe(true);
    expect(parseIngestBodyFast(body)).toBeUndefined();
  });

  it('checks a batch of 1,000 events several times faster than the schema', () => {
    const body = {
      events: Array.from({ length: 1_000 }, (_, i) => ({
        name: 'llm.completion',
        external_customer_id: `customer-${i % 300}`,
        external_id: `http-${i}`,
        timestamp: new Date(1_768_478_400_000 - i * 1_000).toISOString(),
        metadata: { plan: 'pro', tokens: i, model: 'small' },
      })),
    };
    const time = (fn: () => unknown) => {
      const started = performance.now();
      for (let run = 0; run < 20; run++) fn();
      return performance.now() - started;
    };
    time(() => safeParseInput(EventsIngest, body));
    time(() => parseIngestBodyFast(body));
    expect(parseIngestBodyFast(body)).toStrictEqual(safeParseInput(EventsIngest, body).data);
    expect(time(() => parseIngestBodyFast(body))).toBeLessThan(time(() => safeParseInput(EventsIngest, body)));
  });
});
