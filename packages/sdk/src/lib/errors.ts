/**
 * Every error the SDK throws. Client-level messages are worded exactly as the specification words
 * them; the details travel in properties (`cause`, `statusCode`, `body`, …), never in the message.
 */

/** Base of every error thrown by the SDK. */
export class TesseraError extends Error {
  override name = 'TesseraError';
}

/** The input failed its schema: nothing was sent. */
export class SDKValidationError extends TesseraError {
  override name = 'SDKValidationError';
  /** The value that failed validation, as given. */
  readonly rawValue: unknown;
  /** The validation problems (zod issues), each with a path and a message. */
  readonly issues: readonly { path: PropertyKey[]; message: string; code?: string }[];

  constructor(rawValue: unknown, cause: { issues: SDKValidationError['issues'] }) {
    super('Input validation failed', { cause });
    this.rawValue = rawValue;
    this.issues = cause.issues;
  }
}

/** No usable credentials for the operation (a customer-portal call without a customer session, say). */
export class SecurityError extends TesseraError {
  override name = 'SecurityError';
  constructor() {
    super('Security requirements not met in order to perform the operation');
  }
}

/** The request could not be completed at the HTTP client level (no response was received). */
export class HTTPClientError extends TesseraError {
  override name = 'HTTPClientError';
}

export class InvalidRequestError extends HTTPClientError {
  override name = 'InvalidRequestError';
  constructor(message = 'No base URL provided for operation', options?: ErrorOptions) {
    super(message, options);
  }
}

export class ConnectionError extends HTTPClientError {
  override name = 'ConnectionError';
  constructor(options?: ErrorOptions) {
    super('Unable to make request', options);
  }
}

export class RequestTimeoutError extends HTTPClientError {
  override name = 'RequestTimeoutError';
  constructor(options?: ErrorOptions) {
    super('Request timed out', options);
  }
}

export class RequestAbortedError extends HTTPClientError {
  override name = 'RequestAbortedError';
  constructor(options?: ErrorOptions) {
    super('Request aborted by client', options);
  }
}

export class UnexpectedClientError extends HTTPClientError {
  override name = 'UnexpectedClientError';
  constructor(options?: ErrorOptions) {
    super('Unexpected HTTP client error', options);
  }
}

export interface HttpMeta {
  response: Response;
  /** The raw response body text. */
  body: string;
}

/** Base of every error derived from an HTTP response: status, content type, headers and body. */
export class APIError extends TesseraError {
  override name = 'APIError';
  readonly statusCode: number;
  readonly contentType: string;
  readonly headers: Headers;
  /** The raw response body text. */
  readonly body: string;
  readonly rawResponse: Response;

  constructor(message: string, meta: HttpMeta, options?: ErrorOptions) {
    super(message, options);
    this.statusCode = meta.response.status;
    this.contentType = meta.response.headers.get('content-type') ?? '';
    this.headers = meta.response.headers;
    this.body = meta.body;
    this.rawResponse = meta.response;
  }
}

/**
 * A status (or content type) the operation does not describe. `message` is
 * 'Unexpected Status or Content-Type' for an unexpected success status or content type and
 * 'API error occurred' for an undescribed 4XX/5XX.
 */
export class SDKError extends APIError {
  override name = 'SDKError';
}

/** The response (success or error) did not match its schema. */
export class ResponseValidationError extends APIError {
  override name = 'ResponseValidationError';
  /** The parsed body that failed validation. */
  readonly rawValue: unknown;

  constructor(meta: HttpMeta, rawValue: unknown, options?: ErrorOptions) {
    super('Response validation failed', meta, options);
    this.rawValue = rawValue;
  }
}

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** 422 with `{detail: [{loc, msg, type}]}`: the server rejected the input. */
export class HTTPValidationError extends APIError {
  override name = 'HTTPValidationError';
  readonly detail: ValidationIssue[];

  constructor(meta: HttpMeta, detail: ValidationIssue[]) {
    super(detail.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; ') || 'Validation error', meta);
    this.detail = detail;
  }
}

/** An error answered as `{error, detail}`; `error` names it. Subclasses exist for each catalogue name. */
export class NamedAPIError extends APIError {
  override name = 'NamedAPIError';
  /** The wire `error` value, e.g. 'ResourceNotFound'. */
  readonly error: string;
  readonly detail: string;
  /** The whole parsed body (some errors carry more, e.g. `error_description`). */
  readonly data: Record<string, unknown>;

  constructor(meta: HttpMeta, data: { error: string; detail: string } & Record<string, unknown>) {
    super(data.detail, meta);
    this.error = data.error;
    this.detail = data.detail;
    this.data = data;
  }
}

// One class per name of the error catalogue (the class name is the wire `error`).
export class BadRequest extends NamedAPIError {
  override name = 'BadRequest';
}
export class PaymentError extends NamedAPIError {
  override name = 'PaymentError';
}
export class RefundAmountTooHigh extends NamedAPIError {
  override name = 'RefundAmountTooHigh';
}
export class Unauthorized extends NamedAPIError {
  override name = 'Unauthorized';
}
/** 401 `invalid_token`: the bearer token is unknown, expired or revoked. */
export class InvalidToken extends NamedAPIError {
  override name = 'InvalidToken';
}
/** 403 `insufficient_scope`: the token lacks a scope the operation needs. */
export class InsufficientScope extends NamedAPIError {
  override name = 'InsufficientScope';
}
export class NotPermitted extends NamedAPIError {
  override name = 'NotPermitted';
}
export class AlreadyActiveSubscriptionError extends NamedAPIError {
  override name = 'AlreadyActiveSubscriptionError';
}
export class NotOpenCheckout extends NamedAPIError {
  override name = 'NotOpenCheckout';
}
export class AlreadyCanceledSubscription extends NamedAPIError {
  override name = 'AlreadyCanceledSubscription';
}
export class RefundedAlready extends NamedAPIError {
  override name = 'RefundedAlready';
}
export class ResourceNotFound extends NamedAPIError {
  override name = 'ResourceNotFound';
}
export class MethodNotAllowed extends NamedAPIError {
  override name = 'MethodNotAllowed';
}
export class ResourceAlreadyExists extends NamedAPIError {
  override name = 'ResourceAlreadyExists';
}
export class InvoiceAlreadyExists extends NamedAPIError {
  override name = 'InvoiceAlreadyExists';
}
export class ExpiredCheckoutError extends NamedAPIError {
  override name = 'ExpiredCheckoutError';
}
export class PayloadTooLarge extends NamedAPIError {
  override name = 'PayloadTooLarge';
}
export class UnsupportedMediaType extends NamedAPIError {
  override name = 'UnsupportedMediaType';
}
export class MissingInvoiceBillingDetails extends NamedAPIError {
  override name = 'MissingInvoiceBillingDetails';
}
export class NotPaidOrder extends NamedAPIError {
  override name = 'NotPaidOrder';
}
export class TooManyRequests extends NamedAPIError {
  override name = 'TooManyRequests';
}
/** 409: a request with the same Idempotency-Key is still running (retry once it has answered). */
export class IdempotencyKeyInUse extends NamedAPIError {
  override name = 'IdempotencyKeyInUse';
}

type NamedErrorClass = new (meta: HttpMeta, data: { error: string; detail: string }) => NamedAPIError;

/** Wire `error` value → class. Names outside the catalogue become a plain NamedAPIError. */
export function namedErrorClass(error: string): NamedErrorClass {
  switch (error) {
    case 'BadRequest':
      return BadRequest;
    case 'PaymentError':
      return PaymentError;
    case 'RefundAmountTooHigh':
      return RefundAmountTooHigh;
    case 'Unauthorized':
      return Unauthorized;
    case 'invalid_token':
      return InvalidToken;
    case 'insufficient_scope':
      return InsufficientScope;
    case 'NotPermitted':
      return NotPermitted;
    case 'AlreadyActiveSubscriptionError':
      return AlreadyActiveSubscriptionError;
    case 'NotOpenCheckout':
      return NotOpenCheckout;
    case 'AlreadyCanceledSubscription':
      return AlreadyCanceledSubscription;
    case 'RefundedAlready':
      return RefundedAlready;
    case 'ResourceNotFound':
      return ResourceNotFound;
    case 'MethodNotAllowed':
      return MethodNotAllowed;
    case 'ResourceAlreadyExists':
      return ResourceAlreadyExists;
    case 'InvoiceAlreadyExists':
      return InvoiceAlreadyExists;
    case 'ExpiredCheckoutError':
      return ExpiredCheckoutError;
    case 'PayloadTooLarge':
      return PayloadTooLarge;
    case 'UnsupportedMediaType':
      return UnsupportedMediaType;
    case 'MissingInvoiceBillingDetails':
      return MissingInvoiceBillingDetails;
    case 'NotPaidOrder':
      return NotPaidOrder;
    case 'TooManyRequests':
      return TooManyRequests;
    case 'IdempotencyKeyInUse':
      return IdempotencyKeyInUse;
    default:
      return NamedAPIError;
  }
}

/** Raised by the webhook helper when the signature or timestamp does not check out. */
export class WebhookVerificationError extends TesseraError {
  override name = 'WebhookVerificationError';
}
