import { z } from 'zod/v4';
import { RequestValidationError, type Loc, type ValidationIssue } from './errors.js';

type ZodIssue = z.core.$ZodIssue;

function issueType(issue: ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if ((issue as { input?: unknown }).input === undefined) return 'missing';
      return `${issue.expected}_type`;
    case 'too_small':
      if (issue.origin === 'string') return 'string_too_short';
      if (issue.origin === 'array' || issue.origin === 'set') return 'too_short';
      return issue.inclusive === false ? 'greater_than' : 'greater_than_equal';
    case 'too_big':
      if (issue.origin === 'string') return 'string_too_long';
      if (issue.origin === 'array' || issue.origin === 'set') return 'too_long';
      return issue.inclusive === false ? 'less_than' : 'less_than_equal';
    case 'invalid_value':
      return issue.values.length === 1 ? 'literal_error' : 'enum';
    case 'invalid_format':
      return `${issue.format}_parsing`;
    case 'unrecognized_keys':
      return 'extra_forbidden';
    case 'not_multiple_of':
      return 'multiple_of';
    case 'invalid_union':
      return 'union_tag_invalid';
    case 'custom':
      // Refinements may name their type (`params: { type: 'missing' }`).
      return (issue.params as { type?: string } | undefined)?.type ?? 'value_error';
    default:
      return 'value_error';
  }
}

function issueMessage(issue: ZodIssue): string {
  if (issue.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined) return 'Field required';
  return issue.message;
}

/** Turns zod issues into the 422 detail list, every path prefixed by where the value came from. */
export function toValidationIssues(issues: readonly ZodIssue[], prefix: Loc): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    // A union reports each branch's problems; surface the branch that got furthest, else the union itself.
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const deepest = [...issue.errors].sort((a, b) => depth(b) - depth(a))[0]!;
      if (depth(deepest) > 0) {
        out.push(...toValidationIssues(deepest, [...prefix, ...(issue.path as Loc)]));
        continue;
      }
    }
    out.push({ loc: [...prefix, ...(issue.path as Loc)], msg: issueMessage(issue), type: issueType(issue) });
  }
  return out;
}

function depth(issues: readonly ZodIssue[]): number {
  // Prefer the branch whose issues are nested deepest (it matched the discriminating fields).
  return Math.max(0, ...issues.map((i) => (i.code === 'invalid_type' && i.path.length === 0 ? -1 : i.path.length)));
}

// NUL (PostgreSQL text refuses it) and a surrogate half without its pair (not Unicode text at all).
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const UNSTORABLE_MESSAGE = 'Input should be a valid string: NUL characters and unpaired surrogates are not allowed';

/**
 * Every string of a client value, keys included, that no text column could hold, as zod issues at
 * their path (a bad key is reported at the key). Walks iteratively: depth is the client's choice.
 */
export function unstorableTextIssues(value: unknown): ZodIssue[] {
  interface Step {
    value: unknown;
    key?: PropertyKey;
    parent?: Step;
  }
  const pathOf = (step: Step | undefined, key?: PropertyKey): PropertyKey[] => {
    const path: PropertyKey[] = key === undefined ? [] : [key];
    for (let at = step; at && at.key !== undefined; at = at.parent) path.unshift(at.key);
    return path;
  };
  const issues: ZodIssue[] = [];
  const pending: Step[] = [{ value }];
  while (pending.length > 0) {
    const step = pending.pop()!;
    const current = step.value;
    if (typeof current === 'string') {
      if (UNSTORABLE_TEXT.test(current)) issues.push(unstorableIssue(pathOf(step)));
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--)
        pending.push({ value: current[index], key: index, parent: step });
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current).reverse()) {
        if (UNSTORABLE_TEXT.test(key)) issues.push(unstorableIssue(pathOf(step, key)));
        else pending.push({ value: item, key, parent: step });
      }
    }
  }
  return issues;
}

function unstorableIssue(path: PropertyKey[]): ZodIssue {
  return { code: 'custom', path, message: UNSTORABLE_MESSAGE, params: { type: 'string_unicode' }, input: undefined };
}

/**
 * Parses client input. Text no column can hold is refused here, for every body, query and path value,
 * before the schema sees it. `reportInput` lets issues tell a missing field from a wrong type; the
 * input itself never reaches the response.
 */
export function safeParseInput<T extends z.ZodType>(schema: T, value: unknown): z.ZodSafeParseResult<z.output<T>> {
  const unstorable = unstorableTextIssues(value);
  const result = schema.safeParse(value, { reportInput: true });
  if (unstorable.length === 0) return result;
  // The schema's other problems too (one 422 lists them all), but only one issue per field.
  const taken = new Set(unstorable.map((issue) => JSON.stringify(issue.path)));
  const others = result.success ? [] : result.error.issues.filter((i) => !taken.has(JSON.stringify(i.path)));
  return { success: false, error: new z.ZodError([...unstorable, ...others]) as z.ZodError<z.output<T>> };
}

export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, prefix: Loc): z.output<T> {
  const result = safeParseInput(schema, value);
  if (!result.success) throw new RequestValidationError(toValidationIssues(result.error.issues, prefix));
  return result.data;
}
