/**
 * The closed set of errors the API answers with. The class name is the wire `error` (as the
 * reference does), each class carries its status, and one helper builds 422 bodies.
 */
export type Loc = (string | number)[];

export interface ValidationIssue {
  loc: Loc;
  msg: string;
  type: string;
}

export abstract class ApiError extends Error {
  abstract readonly status: number;
  readonly headers: Record<string, string> = {};

  /** The wire body; named errors are `{error, detail}`. */
  body(): Record<string, unknown> {
    return { error: this.constructor.name, detail: this.message };
  }
}

export class BadRequest extends ApiError {
  readonly status = 400;
  constructor(detail = 'Bad request') {
    super(detail);
  }
}

export class Unauthorized extends ApiError {
  readonly status = 401;
  constructor(detail = 'Unauthorized') {
    super(detail);
    this.headers['www-authenticate'] = 'Bearer realm="tessera"';
  }
}

/** A bearer value that matches nothing, is expired or revoked, or belongs to another kind of subject. */
export class InvalidToken extends ApiError {
  readonly status = 401;
  constructor(detail = 'The access token provided is expired, revoked, malformed, or invalid for other reasons.') {
    super(detail);
    this.headers['www-authenticate'] = `Bearer realm="tessera", error="invalid_token", error_description="${detail}"`;
  }
  override body() {
    return { error: 'invalid_token', error_description: this.message, detail: this.message };
  }
}

export class InsufficientScope extends ApiError {
  readonly status = 403;
  constructor(readonly required: string[]) {
    super('The request requires higher privileges than provided by the access token.');
    this.headers['www-authenticate'] =
      `Bearer realm="tessera", error="insufficient_scope", scope="${required.join(' ')}"`;
  }
  override body() {
    return { error: 'insufficient_scope', error_description: this.message, detail: this.message };
  }
}

export class NotPermitted extends ApiError {
  readonly status = 403;
  constructor(detail = 'Not permitted') {
    super(detail);
  }
}

export class ResourceNotFound extends ApiError {
  readonly status = 404;
  constructor(detail = 'Not found') {
    super(detail);
  }
}

/** Something that existed and is gone for good (an ended subscription, an expired download link). */
export class ResourceUnavailable extends ApiError {
  readonly status = 410;
  constructor(detail = 'Unavailable') {
    super(detail);
  }
}

export class MethodNotAllowed extends ApiError {
  readonly status = 405;
  constructor(detail = 'Method not allowed') {
    super(detail);
  }
}

export class RequestTimeout extends ApiError {
  readonly status = 408;
  constructor(detail = 'The request took too long to arrive') {
    super(detail);
  }
}

export class ResourceAlreadyExists extends ApiError {
  readonly status = 409;
  constructor(detail = 'Already exists') {
    super(detail);
  }
}

export class PayloadTooLarge extends ApiError {
  readonly status = 413;
  constructor(detail = 'Request body is too large') {
    super(detail);
  }
}

export class UriTooLong extends ApiError {
  readonly status = 414;
  constructor(detail = 'The request URL is too long') {
    super(detail);
  }
}

export class UnsupportedMediaType extends ApiError {
  readonly status = 415;
  constructor(detail = 'Request body must be application/json') {
    super(detail);
  }
}

export class RequestHeaderFieldsTooLarge extends ApiError {
  readonly status = 431;
  constructor(detail = 'The request line and headers are too large') {
    super(detail);
  }
}

export class TooManyRequests extends ApiError {
  readonly status = 429;
  constructor(retryAfterSeconds: number, detail = 'Too many requests') {
    super(detail);
    this.headers['retry-after'] = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  }
}

export class RequestValidationError extends ApiError {
  readonly status = 422;
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; '));
  }
  override body() {
    return { error: 'RequestValidationError', detail: this.issues };
  }
}

/** One 422 issue, for business rules checked after schema validation. */
export function validationError(loc: Loc, msg: string, type = 'value_error'): RequestValidationError {
  return new RequestValidationError([{ loc, msg, type }]);
}

/** Collects several business-rule problems, so one 422 lists every problem at once. */
export class IssueCollector {
  readonly issues: ValidationIssue[] = [];
  add(loc: Loc, msg: string, type = 'value_error'): void {
    this.issues.push({ loc, msg, type });
  }
  throwIfAny(): void {
    if (this.issues.length > 0) throw new RequestValidationError(this.issues);
  }
}
