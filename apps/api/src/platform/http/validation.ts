import type { z } from 'zod/v4';
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

/**
 * Parses client input. `reportInput` lets issues tell a missing field from a wrong type; the input
 * itself never reaches the response.
 */
export function safeParseInput<T extends z.ZodType>(schema: T, value: unknown) {
  return schema.safeParse(value, { reportInput: true });
}

export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, prefix: Loc): z.output<T> {
  const result = safeParseInput(schema, value);
  if (!result.success) throw new RequestValidationError(toValidationIssues(result.error.issues, prefix));
  return result.data;
}
