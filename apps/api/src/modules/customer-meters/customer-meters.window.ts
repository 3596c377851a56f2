/**
 * A customer's meter: which events a meter counts, what they add up to, the current window (the
 * events since the meter's latest reset) and the credits it holds. Pure functions, no database.
 *
 * The filter and aggregation semantics are those of the reference's SQL (the events table queried
 * with the meter's clauses), reproduced on event rows so one implementation serves every caller.
 */

export type FilterOperator = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'like' | 'not_like';

export interface FilterClause {
  property: string;
  operator: FilterOperator;
  value: string | number | boolean;
}

export interface MeterFilter {
  conjunction: 'and' | 'or';
  clauses: (FilterClause | MeterFilter)[];
}

/** `unique` (an extension of the reference) counts the distinct values of a property. */
export type MeterAggregation =
  { func: 'count' } | { func: 'sum' | 'max' | 'min' | 'avg'; property: string } | { func: 'unique'; property: string };

export interface MeterDefinition {
  id: string;
  filter: MeterFilter;
  aggregation: MeterAggregation;
}

export interface MeterEvent {
  name: string;
  source: 'system' | 'user';
  timestamp: Date;
  ingested_at: Date;
  metadata: unknown;
}

export interface MeterBalance {
  consumed_units: number;
  credited_units: number;
  balance: number;
}

export const METER_CREDITED = 'meter.credited';
export const METER_RESET = 'meter.reset';

// ---------------------------------------------------------------------------------------------------
// Filter
// ---------------------------------------------------------------------------------------------------

/** Whether the event passes the filter. An empty clause list passes everything (either conjunction). */
export function matchesFilter(filter: MeterFilter, event: MeterEvent): boolean {
  if (filter.clauses.length === 0) return true;
  const test = (clause: FilterClause | MeterFilter) =>
    'conjunction' in clause ? matchesFilter(clause, event) : matchesClause(clause, event);
  return filter.conjunction === 'or' ? filter.clauses.some(test) : filter.clauses.every(test);
}

function withoutMetadataPrefix(property: string): string {
  return property.startsWith('metadata.') ? property.slice('metadata.'.length) : property;
}

const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

function matchesClause(clause: FilterClause, event: MeterEvent): boolean {
  const property = withoutMetadataPrefix(clause.property);
  const { operator, value } = clause;

  // Columns compare only with a value of their own type; any other value makes the clause false.
  if (property === 'name' || property === 'source') {
    return typeof value === 'string' && compareText(operator, event[property], value);
  }
  if (property === 'timestamp') {
    // Epoch seconds with their fraction, as `extract(epoch from timestamp)`. LIKE has no meaning on a
    // number (the reference's query fails), so it never matches.
    if (!isInt(value) || operator === 'like' || operator === 'not_like') return false;
    return compareOrdered(operator, event.timestamp.getTime() / 1000, value);
  }

  const stored = metadataOf(event)[property];
  // LIKE works on the text form of whatever is stored (`metadata->>'key'`); a missing key or a JSON
  // null has no text and matches neither LIKE nor NOT LIKE.
  if (operator === 'like' || operator === 'not_like') {
    const text = jsonbText(stored);
    return text !== null && compareText(operator, text, textOfValue(value));
  }
  // Otherwise the stored JSON type decides how to compare; other types (null, objects, arrays, a
  // missing key) never match.
  if (typeof stored === 'string') return compareText(operator, stored, textOfValue(value));
  if (typeof stored === 'number') return isInt(value) && compareOrdered(operator, stored, value);
  if (typeof stored === 'boolean') {
    // false < true, as PostgreSQL orders booleans.
    return typeof value === 'boolean' && compareOrdered(operator, Number(stored), Number(value));
  }
  return false;
}

function metadataOf(event: MeterEvent): Record<string, unknown> {
  const metadata = event.metadata;
  return metadata && typeof metadata === 'object' && !Array.isArray(metadata)
    ? (metadata as Record<string, unknown>)
    : {};
}

/** A filter value compared as text: booleans become `t`/`f` (PostgreSQL's text form of a boolean). */
function textOfValue(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return typeof value === 'number' ? plainNumber(value) : value;
}

function compareText(operator: FilterOperator, actual: string, expected: string): boolean {
  if (operator === 'like') return likeSubstring(expected).test(actual);
  if (operator === 'not_like') return !likeSubstring(expected).test(actual);
  // Byte order of the UTF-8 text (the C collation), independent of the server's locale.
  return compareOrdered(operator, Buffer.compare(Buffer.from(actual), Buffer.from(expected)), 0);
}

function compareOrdered(operator: FilterOperator, actual: number, expected: number): boolean {
  switch (operator) {
    case 'eq':
      return actual === expected;
    case 'ne':
      return actual !== expected;
    case 'gt':
      return actual > expected;
    case 'gte':
      return actual >= expected;
    case 'lt':
      return actual < expected;
    case 'lte':
      return actual <= expected;
    default:
      return false;
  }
}

/**
 * `LIKE '%value%'`: a case-sensitive substring match in which the value keeps LIKE's own wildcards
 * (`%` any run, `_` any one character, `\` escapes the next one), as the reference passes it unescaped.
 */
function likeSubstring(value: string): RegExp {
  let pattern = '';
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    if (char === '\\' && i + 1 < value.length) pattern += escapeRegExp(value[++i]!);
    else if (char === '%') pattern += '.*';
    else if (char === '_') pattern += '.';
    else pattern += escapeRegExp(char);
  }
  return new RegExp(pattern, 'su');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** The text `metadata->>'key'` gives for a stored JSON value; null for a missing key or JSON null. */
function jsonbText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  return jsonbOutput(value);
}

/**
 * PostgreSQL's output form of a jsonb value: `": "` and `", "` separators, object keys in jsonb's
 * storage order (shorter keys first, then byte order), numbers without exponent.
 */
function jsonbOutput(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return plainNumber(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jsonbOutput).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => {
    const [ba, bb] = [Buffer.from(a), Buffer.from(b)];
    return ba.length - bb.length || Buffer.compare(ba, bb);
  });
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${jsonbOutput(v)}`).join(', ')}}`;
}

/** A number in positional notation (`1e-7` → `0.0000001`, `1e21` → `1000000000000000000000`). */
function plainNumber(value: number): string {
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, head, tail = '', exponentText] = match;
  const digits = head! + tail;
  const point = 1 + Number(exponentText);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

// ---------------------------------------------------------------------------------------------------
// Aggregation
// ---------------------------------------------------------------------------------------------------

/**
 * The meter's quantity over `events`. `count` counts them; the other functions read a top-level
 * metadata property and use only events where it is a JSON number. No event gives 0.
 */
export function aggregate(aggregation: MeterAggregation, events: MeterEvent[]): number {
  if (aggregation.func === 'count') return events.length;
  if (aggregation.func === 'unique') {
    const property = withoutMetadataPrefix(aggregation.property);
    const seen = new Set<string>();
    for (const event of events) {
      const value = metadataOf(event)[property];
      if (value !== undefined && value !== null) seen.add(jsonbOutput(value));
    }
    return seen.size;
  }
  const values = events.map((event) => numericProperty(aggregation, event)).filter((v) => v !== undefined);
  if (values.length === 0) return 0;
  switch (aggregation.func) {
    case 'sum':
      return values.reduce((total, v) => total + v, 0);
    case 'max':
      return values.reduce((top, v) => Math.max(top, v));
    case 'min':
      return values.reduce((bottom, v) => Math.min(bottom, v));
    case 'avg':
      return values.reduce((total, v) => total + v, 0) / values.length;
  }
}

function numericProperty(aggregation: MeterAggregation, event: MeterEvent): number | undefined {
  if (aggregation.func === 'count' || aggregation.func === 'unique') return undefined;
  const value = metadataOf(event)[withoutMetadataPrefix(aggregation.property)];
  // Only finite JSON numbers: a string (even "12"), NaN or an infinity is not a quantity.
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Whether the event carries what the aggregation reads (any event for count). */
export function aggregationApplies(aggregation: MeterAggregation, event: MeterEvent): boolean {
  if (aggregation.func === 'count') return true;
  if (aggregation.func === 'unique') {
    const value = metadataOf(event)[withoutMetadataPrefix(aggregation.property)];
    return value !== undefined && value !== null;
  }
  return numericProperty(aggregation, event) !== undefined;
}

/**
 * Whether a user event counts for the meter: it passes the filter and carries what the aggregation
 * reads (a numeric property for sum/max/min/avg).
 */
export function countsFor(meter: MeterDefinition, event: MeterEvent): boolean {
  if (event.source !== 'user' || !matchesFilter(meter.filter, event)) return false;
  return aggregationApplies(meter.aggregation, event);
}

// ---------------------------------------------------------------------------------------------------
// Window, credits, balance, rollover
// ---------------------------------------------------------------------------------------------------

/** Whether the event is a `meter.credited` or `meter.reset` system event of this meter. */
export function isMeterSystemEvent(event: MeterEvent, meterId: string): boolean {
  return (
    event.source === 'system' &&
    (event.name === METER_CREDITED || event.name === METER_RESET) &&
    metadataOf(event).meter_id === meterId
  );
}

function creditUnitsOf(event: MeterEvent): number {
  const units = metadataOf(event).units;
  return typeof units === 'number' ? units : 0;
}

/**
 * Events that share an ingestion instant come from one transaction (or one frozen test clock). Within
 * an instant the reset that opens a window goes first, and credits go before debits: a revoke's
 * negative credit always follows the credit it takes back. Otherwise the order is the ingestion order.
 */
function byIngestion(a: MeterEvent, b: MeterEvent): number {
  const time = a.ingested_at.getTime() - b.ingested_at.getTime();
  if (time !== 0) return time;
  const weight = (event: MeterEvent) =>
    event.name === METER_RESET ? Infinity : event.name === METER_CREDITED ? creditUnitsOf(event) : 0;
  const [wa, wb] = [weight(a), weight(b)];
  return wa === wb ? 0 : wa > wb ? -1 : 1;
}

/**
 * The current window: the events ingested at or after the meter's latest `meter.reset` (all of them
 * when it was never reset), in ingestion order.
 */
export function windowOf<T extends MeterEvent>(events: T[], meterId: string): T[] {
  let start = -Infinity;
  for (const event of events) {
    if (event.name === METER_RESET && isMeterSystemEvent(event, meterId)) {
      start = Math.max(start, event.ingested_at.getTime());
    }
  }
  return events.filter((event) => event.ingested_at.getTime() >= start).sort(byIngestion);
}

/** A running sum that never goes below zero: a debit larger than what is left only empties it. */
export function nonNegativeRunningSum(values: number[]): number {
  return values.reduce((total, value) => Math.max(0, total + value), 0);
}

/** The units credited by the `meter.credited` events among `systemEvents`, in their order. */
export function creditedUnits(systemEvents: MeterEvent[]): number {
  return nonNegativeRunningSum(systemEvents.filter((e) => e.name === METER_CREDITED).map(creditUnitsOf));
}

/** The meter credits in `window` (ordered), with the rollover flag they were granted with. */
export function creditsOf(window: MeterEvent[], meterId: string): { units: number; rollover: boolean }[] {
  return window
    .filter((event) => event.name === METER_CREDITED && isMeterSystemEvent(event, meterId))
    .map((event) => ({ units: creditUnitsOf(event), rollover: metadataOf(event).rollover === true }));
}

/** The meter's consumption, credits and balance (which goes negative past the credits) over a window. */
export function meterBalance(meter: MeterDefinition, window: MeterEvent[]): MeterBalance {
  const consumed = aggregate(
    meter.aggregation,
    window.filter((event) => countsFor(meter, event)),
  );
  const credited = creditedUnits(window.filter((event) => isMeterSystemEvent(event, meter.id)));
  return { consumed_units: consumed, credited_units: credited, balance: credited - consumed };
}

/**
 * The units carried into the next period: what is left of the window's credits, but never more than
 * the credits granted with `rollover` (usage spends all credits alike). Each kind of credit is summed
 * as a non-negative running sum, so a revoked credit cancels the credit it took back.
 */
export function rolloverUnits(credits: { units: number; rollover: boolean }[], usage: number): number {
  const kept = nonNegativeRunningSum(credits.filter((c) => !c.rollover).map((c) => c.units));
  const rollover = nonNegativeRunningSum(credits.filter((c) => c.rollover).map((c) => c.units));
  return Math.max(0, Math.min(Math.floor(kept + rollover - usage), rollover));
}

/** What billing needs of a meter over a period: the units consumed and the units credited. */
export interface MeterUsage {
  consumed_units: number;
  credited_units: number;
}

/**
 * The usage of a customer's meter over `[start, end)`: the aggregation over the user events the
 * meter counts whose `timestamp` falls in the period, and the non-negative running sum of the meter's
 * `meter.credited` events of the period (in ingestion order). `events` are the customer's events.
 */
export function meterUsage(
  meter: MeterDefinition,
  events: MeterEvent[],
  period: { start: Date; end: Date },
): MeterUsage {
  const inPeriod = events.filter(
    (event) => event.timestamp.getTime() >= period.start.getTime() && event.timestamp.getTime() < period.end.getTime(),
  );
  const consumed = aggregate(
    meter.aggregation,
    inPeriod.filter((event) => countsFor(meter, event)),
  );
  const credits = [...inPeriod]
    .filter((event) => event.name === METER_CREDITED && isMeterSystemEvent(event, meter.id))
    .sort(byIngestion);
  return { consumed_units: consumed, credited_units: creditedUnits(credits) };
}
