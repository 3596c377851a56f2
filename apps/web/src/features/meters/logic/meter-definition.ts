import type { FilterInput, FilterOperator, Meter, MeterCreate } from '@tessera/sdk';

/**
 * The meter form's pure logic: the filter builder's drafts (every value typed as text) to the API's
 * filter and aggregation, and back. The builder never nests deeper than the API accepts.
 */

/** The API's limit (meters.schemas.ts MAX_FILTER_DEPTH): the top-level filter is level 1. */
export const MAX_FILTER_DEPTH = 10;

export const OPERATORS: readonly { value: FilterOperator; label: string }[] = [
  { value: 'eq', label: 'equals' },
  { value: 'ne', label: 'does not equal' },
  { value: 'gt', label: 'is greater than' },
  { value: 'gte', label: 'is at least' },
  { value: 'lt', label: 'is less than' },
  { value: 'lte', label: 'is at most' },
  { value: 'like', label: 'contains' },
  { value: 'not_like', label: 'does not contain' },
];

export type Conjunction = 'and' | 'or';

export interface ClauseDraft {
  kind: 'clause';
  key: string;
  property: string;
  operator: FilterOperator;
  /** As typed: `42` is a number, `true`/`false` a boolean, `"42"` (quoted) the text 42, anything else text. */
  value: string;
}

export interface GroupDraft {
  kind: 'group';
  key: string;
  conjunction: Conjunction;
  clauses: (ClauseDraft | GroupDraft)[];
}

export type AggregationFunction = 'count' | 'sum' | 'max' | 'min' | 'avg' | 'unique';

export const AGGREGATIONS: readonly { value: AggregationFunction; label: string }[] = [
  { value: 'count', label: 'Count of events' },
  { value: 'sum', label: 'Sum of a property' },
  { value: 'max', label: 'Maximum of a property' },
  { value: 'min', label: 'Minimum of a property' },
  { value: 'avg', label: 'Average of a property' },
  { value: 'unique', label: 'Distinct values of a property' },
];

export interface MeterDraft {
  name: string;
  filter: GroupDraft;
  aggregation: AggregationFunction;
  /** The property aggregated (all but count). */
  aggregationProperty: string;
}

let lastKey = 0;
/** A key for React lists of clauses (never sent). */
export function newKey(): string {
  lastKey += 1;
  return `k${lastKey}`;
}

export function newClause(): ClauseDraft {
  return { kind: 'clause', key: newKey(), property: 'name', operator: 'eq', value: '' };
}

export function newGroup(conjunction: Conjunction = 'and', withClause = true): GroupDraft {
  return { kind: 'group', key: newKey(), conjunction, clauses: withClause ? [newClause()] : [] };
}

/** A typed value in the API's terms. */
export function parseValue(text: string): string | number | boolean {
  const trimmed = text.trim();
  if (trimmed === 'true') return true;
  if (trimmed === 'false') return false;
  if (/^-?\d+$/.test(trimmed) && Number.isSafeInteger(Number(trimmed))) return Number(trimmed);
  const quoted = /^"(.*)"$/s.exec(trimmed);
  if (quoted) return quoted[1]!;
  return text;
}

/** The inverse of `parseValue`: text that reads back as the same value. */
export function formatValue(value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value);
  return parseValue(value) === value ? value : `"${value}"`;
}

/** Where a problem of the draft is, as the API names it: `filter.clauses.0.clauses.1.property`. */
export type DraftErrors = Record<string, string>;

function groupToFilter(group: GroupDraft, path: string, errors: DraftErrors): FilterInput {
  return {
    conjunction: group.conjunction,
    clauses: group.clauses.map((node, index) => {
      const at = `${path}.clauses.${index}`;
      if (node.kind === 'group') return groupToFilter(node, at, errors);
      if (node.property.trim() === '') errors[`${at}.property`] = 'Enter a property: name, source or a metadata key.';
      return { property: node.property.trim(), operator: node.operator, value: parseValue(node.value) };
    }),
  };
}

/** The body of a create (or update) of the draft, or the problems to show next to its fields. */
export function meterBody(draft: MeterDraft): { body: MeterCreate; errors: DraftErrors } {
  const errors: DraftErrors = {};
  if (draft.name.trim().length < 3) errors.name = 'Enter a name of at least 3 characters.';
  const filter = groupToFilter(draft.filter, 'filter', errors);
  const property = draft.aggregationProperty.trim();
  if (draft.aggregation !== 'count' && property === '')
    errors['aggregation.property'] = 'Enter the metadata key whose values are aggregated.';
  const aggregation =
    draft.aggregation === 'count' ? { func: 'count' as const } : { func: draft.aggregation, property };
  return { body: { name: draft.name.trim(), filter, aggregation }, errors };
}

function filterToGroup(filter: Meter['filter']): GroupDraft {
  return {
    kind: 'group',
    key: newKey(),
    conjunction: filter.conjunction,
    clauses: filter.clauses.map((node) =>
      'clauses' in node
        ? filterToGroup(node)
        : {
            kind: 'clause' as const,
            key: newKey(),
            property: node.property,
            operator: node.operator,
            value: formatValue(node.value),
          },
    ),
  };
}

/** A draft of an existing meter (editing), or of a new one: events named by one name, counted. */
export function meterDraft(meter?: Meter): MeterDraft {
  if (!meter) return { name: '', filter: newGroup('and'), aggregation: 'count', aggregationProperty: '' };
  return {
    name: meter.name,
    filter: filterToGroup(meter.filter),
    aggregation: meter.aggregation.func,
    aggregationProperty: 'property' in meter.aggregation ? meter.aggregation.property : '',
  };
}

/** How the filter reads in words: `name = "api_call" and (region = "eu" or region = "us")`. */
export function describeFilter(filter: Meter['filter'], isNested = false): string {
  if (filter.clauses.length === 0) return isNested ? '(every event)' : 'Every event';
  const words = OPERATOR_SYMBOLS;
  const parts = filter.clauses.map((node) =>
    'clauses' in node
      ? describeFilter(node, true)
      : `${node.property} ${words[node.operator]} ${typeof node.value === 'string' ? JSON.stringify(node.value) : String(node.value)}`,
  );
  const text = parts.join(` ${filter.conjunction} `);
  return isNested && parts.length > 1 ? `(${text})` : text;
}

const OPERATOR_SYMBOLS: Record<FilterOperator, string> = {
  eq: '=',
  ne: '≠',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  like: 'contains',
  not_like: 'does not contain',
};

/** How the aggregation reads: "Count", "Sum of tokens". */
export function describeAggregation(aggregation: Meter['aggregation']): string {
  const label = { count: 'Count', sum: 'Sum', max: 'Maximum', min: 'Minimum', avg: 'Average', unique: 'Distinct' }[
    aggregation.func
  ];
  return 'property' in aggregation ? `${label} of ${aggregation.property}` : `${label} of events`;
}
