import type { Meter } from '@tessera/sdk';
import { describe, expect, it } from 'vitest';
import {
  describeAggregation,
  describeFilter,
  formatValue,
  meterBody,
  meterDraft,
  newGroup,
  parseValue,
  type ClauseDraft,
  type GroupDraft,
} from './meter-definition';

const clause = (property: string, operator: ClauseDraft['operator'], value: string): ClauseDraft => ({
  kind: 'clause',
  key: `${property}-${value}`,
  property,
  operator,
  value,
});
const group = (conjunction: 'and' | 'or', clauses: GroupDraft['clauses']): GroupDraft => ({
  kind: 'group',
  key: `g-${conjunction}-${clauses.length}`,
  conjunction,
  clauses,
});

describe('parseValue', () => {
  it.each([
    ['api_call', 'api_call'],
    ['42', 42],
    ['-7', -7],
    ['4.5', '4.5'],
    ['true', true],
    ['false', false],
    ['"42"', '42'],
    ['"true"', 'true'],
    ['', ''],
    ['99999999999999999999', '99999999999999999999'],
  ])('%j → %j', (text, value) => {
    expect(parseValue(text)).toBe(value);
  });
});

describe('formatValue', () => {
  it.each([['api_call'], [42], [true], ['42'], ['true'], [' 42'], ['']])('reads %j back as the same value', (value) => {
    expect(parseValue(formatValue(value))).toBe(value);
  });
});

describe('meterBody', () => {
  it('builds the nested filter and the aggregation the API takes', () => {
    const draft = {
      name: ' API calls ',
      filter: group('and', [
        clause('name', 'eq', 'api_call'),
        group('or', [clause('region', 'eq', 'eu'), clause('tokens', 'gte', '100')]),
      ]),
      aggregation: 'sum' as const,
      aggregationProperty: ' tokens ',
    };
    expect(meterBody(draft)).toEqual({
      body: {
        name: 'API calls',
        filter: {
          conjunction: 'and',
          clauses: [
            { property: 'name', operator: 'eq', value: 'api_call' },
            {
              conjunction: 'or',
              clauses: [
                { property: 'region', operator: 'eq', value: 'eu' },
                { property: 'tokens', operator: 'gte', value: 100 },
              ],
            },
          ],
        },
        aggregation: { func: 'sum', property: 'tokens' },
      },
      errors: {},
    });
  });

  it('counts without a property', () => {
    const { body } = meterBody({ ...meterDraft(), name: 'Calls', aggregationProperty: 'ignored' });
    expect(body.aggregation).toEqual({ func: 'count' });
  });

  it('names each problem by the field the API would name', () => {
    const { errors } = meterBody({
      name: 'ab',
      filter: group('and', [clause('name', 'eq', 'x'), group('or', [clause(' ', 'eq', 'y')])]),
      aggregation: 'max',
      aggregationProperty: '',
    });
    expect(Object.keys(errors).sort()).toEqual(['aggregation.property', 'filter.clauses.1.clauses.0.property', 'name']);
  });
});

describe('meterDraft', () => {
  const meter: Meter = {
    id: '00000000-0000-4000-8000-000000000001',
    organization_id: '00000000-0000-4000-8000-000000000002',
    created_at: '2026-01-01T00:00:00Z',
    modified_at: null,
    metadata: {},
    name: 'Tokens',
    filter: {
      conjunction: 'or',
      clauses: [
        { property: 'name', operator: 'eq', value: 'completion' },
        { conjunction: 'and', clauses: [{ property: 'model', operator: 'like', value: '42' }] },
      ],
    },
    aggregation: { func: 'sum', property: 'tokens' },
  };

  it('round-trips an existing meter unchanged, so saving a rename sends the same definition', () => {
    const { body, errors } = meterBody(meterDraft(meter));
    expect(errors).toEqual({});
    expect(body).toEqual({ name: 'Tokens', filter: meter.filter, aggregation: meter.aggregation });
  });

  it('starts a new meter as a count with one condition on the name', () => {
    const draft = meterDraft();
    expect(draft.aggregation).toBe('count');
    expect(draft.filter.clauses).toMatchObject([{ kind: 'clause', property: 'name', operator: 'eq', value: '' }]);
    expect(newGroup('or', false).clauses).toEqual([]);
  });

  it('describes the meter in words', () => {
    expect(describeFilter(meter.filter)).toBe('name = "completion" or model contains "42"');
    expect(
      describeFilter({
        conjunction: 'and',
        clauses: [
          { property: 'name', operator: 'eq', value: 'x' },
          {
            conjunction: 'or',
            clauses: [
              { property: 'a', operator: 'gt', value: 1 },
              { property: 'b', operator: 'ne', value: true },
            ],
          },
        ],
      }),
    ).toBe('name = "x" and (a > 1 or b ≠ true)');
    expect(describeFilter({ conjunction: 'and', clauses: [] })).toBe('Every event');
    expect(describeAggregation(meter.aggregation)).toBe('Sum of tokens');
    expect(describeAggregation({ func: 'count' })).toBe('Count of events');
  });
});
