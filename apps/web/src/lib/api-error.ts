import {
  APIError,
  ConnectionError,
  HTTPValidationError,
  NamedAPIError,
  RequestTimeoutError,
  ResponseValidationError,
  SDKValidationError,
} from '@tessera/sdk';

export interface FieldIssue {
  /** Dotted path inside the request body (`name`, `prices.0.price_amount`), '' when it names no field. */
  field: string;
  message: string;
}

export interface DescribedError {
  /** One sentence for an alert. */
  message: string;
  /** Problems with a field; forms show those they render next to the field and list the rest. */
  issues: FieldIssue[];
}

function fieldOf(loc: readonly PropertyKey[]): string {
  const path = loc[0] === 'body' || loc[0] === 'query' || loc[0] === 'path' ? loc.slice(1) : loc;
  return path.map(String).join('.');
}

/** Every error the SDK can throw, in words a person can act on. */
export function describeError(error: unknown): DescribedError {
  if (error instanceof HTTPValidationError) {
    return {
      message: 'Some values were not accepted. Check the highlighted fields.',
      issues: error.detail.map((issue) => ({ field: fieldOf(issue.loc), message: issue.msg })),
    };
  }
  if (error instanceof SDKValidationError) {
    return {
      message: 'Some values are not valid. Check the highlighted fields.',
      issues: flattenIssues(error.issues as readonly SchemaIssue[], []).map((issue) => ({
        field: fieldOf(issue.path),
        message: issueWords(issue),
      })),
    };
  }
  if (error instanceof NamedAPIError) return { message: error.detail, issues: [] };
  if (error instanceof ConnectionError)
    return { message: 'The server could not be reached. Check your connection and try again.', issues: [] };
  if (error instanceof RequestTimeoutError) return { message: 'The server took too long to answer.', issues: [] };
  if (error instanceof ResponseValidationError)
    return { message: 'The server answered in an unexpected shape. Reload the page and try again.', issues: [] };
  if (error instanceof APIError)
    return { message: `The server answered with an error (status ${error.statusCode}).`, issues: [] };
  if (error instanceof Error) return { message: error.message, issues: [] };
  return { message: 'Something went wrong.', issues: [] };
}

/** The message for one field, or undefined. */
export function fieldError(error: unknown, field: string): string | undefined {
  if (!error) return undefined;
  return describeError(error).issues.find((issue) => issue.field === field)?.message;
}

/** Issues not shown next to any of the listed fields. */
export function otherIssues(error: unknown, shownFields: readonly string[]): FieldIssue[] {
  if (!error) return [];
  return describeError(error).issues.filter((issue) => !shownFields.includes(issue.field));
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof APIError && error.statusCode === 401;
}

/** A zod issue as the SDK reports it (before sending, the SDK checks the request against the contract). */
export interface SchemaIssue {
  code?: string;
  path: PropertyKey[];
  message: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  format?: string;
  expected?: string;
  values?: unknown[];
  errors?: SchemaIssue[][];
}

/**
 * A union (prices, benefits, discounts) fails as a whole; the branch worth reporting is the one whose
 * discriminator matched, i.e. without a literal mismatch.
 */
function flattenIssues(issues: readonly SchemaIssue[], prefix: PropertyKey[]): SchemaIssue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code !== 'invalid_union' || !issue.errors?.length) return [{ ...issue, path }];
    const branch =
      issue.errors.find(
        (candidate) => !candidate.some((inner) => inner.code === 'invalid_value' && inner.path.length === 1),
      ) ?? issue.errors[0]!;
    return flattenIssues(branch, path);
  });
}

/**
 * Words for a schema issue. The bundled zod carries no message locale (it is tree-shaken away), so the
 * messages are written here from the issue's code and bounds.
 */
export function issueWords(issue: SchemaIssue): string {
  const bound = (value: number | bigint | undefined) => String(value);
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string') return `Must be at least ${bound(issue.minimum)} characters.`;
      if (issue.origin === 'array') return `Choose at least ${bound(issue.minimum)}.`;
      return issue.inclusive === false
        ? `Must be more than ${bound(issue.minimum)}.`
        : `Must be at least ${bound(issue.minimum)}.`;
    case 'too_big':
      if (issue.origin === 'string') return `Must be at most ${bound(issue.maximum)} characters.`;
      if (issue.origin === 'array') return `Choose at most ${bound(issue.maximum)}.`;
      return issue.inclusive === false
        ? `Must be less than ${bound(issue.maximum)}.`
        : `Must be at most ${bound(issue.maximum)}.`;
    case 'invalid_format':
      if (issue.format === 'email') return 'Enter a valid email address.';
      if (issue.format === 'url') return 'Enter a full URL, such as https://example.com.';
      if (issue.format === 'uuid') return 'Must be an ID.';
      return 'Has an invalid format.';
    case 'invalid_type':
      return issue.message.endsWith('received undefined')
        ? 'Required.'
        : `Must be a ${issue.expected ?? 'valid value'}.`;
    case 'invalid_value':
      return `Must be one of: ${(issue.values ?? []).map(String).join(', ')}.`;
    default:
      return issue.message && issue.message !== 'Invalid input' ? issue.message : 'Invalid value.';
  }
}
