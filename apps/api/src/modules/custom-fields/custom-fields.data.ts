import { RequestValidationError, type Loc, type ValidationIssue } from '../../platform/http/errors.js';
import type { CustomFieldType } from './custom-fields.schemas.js';

/**
 * Validation of `custom_field_data` (the answers a checkout collects), as the reference builds it
 * (`custom_field/data.py`): one entry per attached field, keyed by slug.
 *
 * - text: a string within `min_length`/`max_length` (characters);
 * - number: an integer within `ge`/`le` (inclusive); integral floats and integer strings are accepted;
 * - date: a date-time (ISO 8601, or a date alone, or a Unix timestamp); `ge`/`le` are Unix timestamps
 *   in seconds compared by calendar date (UTC); the value is returned as an ISO 8601 UTC string;
 * - select: one of the option values;
 * - checkbox: when required, exactly `true`; otherwise a boolean, `false` by default.
 *
 * A field that is not required (or every field, when `validateRequired` is false, as on checkout
 * create and update) may be absent or null. Keys of fields that are not attached are dropped; the
 * result holds every attached slug (null, or false for a checkbox, when absent).
 */
export interface CustomFieldDataField {
  slug: string;
  type: CustomFieldType;
  properties: unknown;
  required: boolean;
}

export type CustomFieldValue = string | number | boolean | null;
export type CustomFieldData = Record<string, CustomFieldValue>;

export interface CustomFieldDataOptions {
  /** Enforce `required` (checkout confirm); otherwise only types are checked. Default true. */
  validateRequired?: boolean;
  /** Where issues point; default `["body","custom_field_data"]`. */
  loc?: Loc;
}

export interface CustomFieldDataResult {
  data: CustomFieldData;
  issues: ValidationIssue[];
}

type Check = { ok: true; value: CustomFieldValue } | { ok: false; type: string; msg: string };

const fail = (type: string, msg: string): Check => ({ ok: false, type, msg });
const ok = (value: CustomFieldValue): Check => ({ ok: true, value });

interface Bounds {
  min_length?: number;
  max_length?: number;
  ge?: number;
  le?: number;
  options?: { value: string }[];
}

function checkText(value: unknown, props: Bounds): Check {
  if (typeof value !== 'string') return fail('string_type', 'Input should be a valid string');
  const length = [...value].length;
  if (props.min_length !== undefined && length < props.min_length) {
    const unit = props.min_length === 1 ? 'character' : 'characters';
    return fail('string_too_short', `String should have at least ${props.min_length} ${unit}`);
  }
  if (props.max_length !== undefined && length > props.max_length) {
    const unit = props.max_length === 1 ? 'character' : 'characters';
    return fail('string_too_long', `String should have at most ${props.max_length} ${unit}`);
  }
  return ok(value);
}

function checkBounds(compare: number, props: Bounds, show: (bound: number) => string): Check | null {
  if (props.ge !== undefined && compare < props.ge) {
    return fail('greater_than_equal', `Input should be greater than or equal to ${show(props.ge)}`);
  }
  if (props.le !== undefined && compare > props.le) {
    return fail('less_than_equal', `Input should be less than or equal to ${show(props.le)}`);
  }
  return null;
}

function checkNumber(value: unknown, props: Bounds): Check {
  let n: number;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return fail('finite_number', 'Input should be a finite number');
    if (!Number.isInteger(value)) {
      return fail('int_from_float', 'Input should be a valid integer, got a number with a fractional part');
    }
    n = value;
  } else if (typeof value === 'string') {
    if (!/^\s*[-+]?\d+\s*$/.test(value)) {
      return fail('int_parsing', 'Input should be a valid integer, unable to parse string as an integer');
    }
    n = Number(value);
  } else {
    return fail('int_type', 'Input should be a valid integer');
  }
  if (!Number.isSafeInteger(n)) return fail('int_parsing', 'Input should be a valid integer');
  return checkBounds(n, props, String) ?? ok(n);
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|z|[+-]\d{2}:?\d{2})?)?$/;

function parseDate(value: unknown): Date | Check {
  const invalid = fail('datetime_parsing', 'Input should be a valid datetime');
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return invalid;
    // As the reference (pydantic): beyond 2e10 a timestamp is in milliseconds, else in seconds.
    const date = new Date(Math.abs(value) > 2e10 ? value : value * 1000);
    return Number.isNaN(date.getTime()) ? invalid : date;
  }
  if (typeof value !== 'string') return fail('datetime_type', 'Input should be a valid datetime');
  const match = DATE_TIME.exec(value.trim());
  if (!match) return invalid;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone = 'Z'] = match;
  const [year, month, day] = [Number(y), Number(mo), Number(d)];
  const probe = new Date(Date.UTC(year, month - 1, day));
  // 2024-02-30 would roll over into March: refuse it.
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) {
    return invalid;
  }
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return invalid;
  // Without an offset the time is taken as UTC.
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2}):?(\d{2})$/, '$1:$2');
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${fraction.slice(0, 4)}${offset}`);
  return Number.isNaN(date.getTime()) ? invalid : date;
}

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => Math.floor(ms / DAY_MS);

function checkDate(value: unknown, props: Bounds): Check {
  const parsed = parseDate(value);
  if (!(parsed instanceof Date)) return parsed;
  // Bounds are timestamps, compared by calendar day: a bound of 2024-01-01 12:00 admits 2024-01-01.
  const day = dayOf(parsed.getTime());
  const dayBounds: Bounds = {
    ge: props.ge === undefined ? undefined : dayOf(props.ge * 1000),
    le: props.le === undefined ? undefined : dayOf(props.le * 1000),
  };
  const out = checkBounds(day, dayBounds, (d) => new Date(d * DAY_MS).toISOString().slice(0, 10));
  return out ?? ok(parsed.toISOString());
}

const TRUE_STRINGS = new Set(['true', '1', 'yes', 'y', 'on', 't']);
const FALSE_STRINGS = new Set(['false', '0', 'no', 'n', 'off', 'f']);

function checkBoolean(value: unknown): Check {
  if (typeof value === 'boolean') return ok(value);
  if (value === 0 || value === 1) return ok(value === 1);
  if (typeof value === 'string') {
    const lower = value.trim().toLowerCase();
    if (TRUE_STRINGS.has(lower)) return ok(true);
    if (FALSE_STRINGS.has(lower)) return ok(false);
  }
  return fail('bool_parsing', 'Input should be a valid boolean');
}

function quoteList(values: string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

function checkSelect(value: unknown, props: Bounds): Check {
  const values = (props.options ?? []).map((option) => option.value);
  if (typeof value === 'string' && values.includes(value)) return ok(value);
  return fail('literal_error', `Input should be ${quoteList(values)}`);
}

function checkValue(field: CustomFieldDataField, value: unknown, required: boolean): Check {
  const props = (field.properties ?? {}) as Bounds;
  switch (field.type) {
    case 'text':
      return checkText(value, props);
    case 'number':
      return checkNumber(value, props);
    case 'date':
      return checkDate(value, props);
    case 'select':
      return checkSelect(value, props);
    case 'checkbox':
      if (required) return value === true ? ok(true) : fail('literal_error', 'Input should be True');
      return checkBoolean(value);
  }
}

export function validateCustomFieldData(
  fields: readonly CustomFieldDataField[],
  data: Record<string, unknown> | null | undefined,
  options: CustomFieldDataOptions = {},
): CustomFieldDataResult {
  const validateRequired = options.validateRequired ?? true;
  const prefix = options.loc ?? ['body', 'custom_field_data'];
  const input = data ?? {};
  const out: CustomFieldData = {};
  const issues: ValidationIssue[] = [];
  for (const field of fields) {
    const required = validateRequired && field.required;
    const present = Object.prototype.hasOwnProperty.call(input, field.slug) && input[field.slug] !== undefined;
    const value = present ? input[field.slug] : undefined;
    const empty = field.type === 'checkbox' ? false : null;
    if (!present) {
      if (required) issues.push({ loc: [...prefix, field.slug], msg: 'Field required', type: 'missing' });
      out[field.slug] = empty;
      continue;
    }
    if (value === null && !required) {
      out[field.slug] = empty;
      continue;
    }
    const result = checkValue(field, value, required);
    if (result.ok) out[field.slug] = result.value;
    else issues.push({ loc: [...prefix, field.slug], msg: result.msg, type: result.type });
  }
  return { data: out, issues };
}

/** `validateCustomFieldData` that throws the 422 (every problem at once) and returns the clean data. */
export function parseCustomFieldData(
  fields: readonly CustomFieldDataField[],
  data: Record<string, unknown> | null | undefined,
  options: CustomFieldDataOptions = {},
): CustomFieldData {
  const { data: clean, issues } = validateCustomFieldData(fields, data, options);
  if (issues.length > 0) throw new RequestValidationError(issues);
  return clean;
}
