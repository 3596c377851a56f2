/**
 * Tessera SDK. Everything per operation (functions, request/response types, zod schemas) is generated
 * from the committed `openapi.json` by `npm run openapi`; the runtime (client, retries, paging, errors,
 * webhooks) lives in ./lib.
 *
 * Standalone functions are the primary form and tree-shake:
 *
 *   const client = new TesseraCore({ serverURL, accessToken });
 *   const page = await organizationsList(client, { limit: 10 });
 *
 * The `Tessera` class groups the same functions by resource: `new Tessera(options).organizations.list()`.
 */
export type { components, operations, paths } from './generated/schema.js';
export type * from './generated/models.js';
export * from './generated/operations.js';
export * as schemas from './generated/zod.js';

export {
  TesseraCore,
  type ClientOptions,
  type CustomerSessionRequestOptions,
  type FetchLike,
  type RequestOptions,
} from './lib/client.js';
export {
  call,
  encodeQuery,
  IDEMPOTENCY_KEY_HEADER,
  newIdempotencyKey,
  type Operation,
  type ParameterSpec,
  type SecurityKind,
} from './lib/http.js';
export { DEFAULT_LIMIT, hasNextPage, paginate, type PageIterator } from './lib/paging.js';
export {
  DEFAULT_BACKOFF,
  DEFAULT_RETRY_CODES,
  MAX_JITTER_MS,
  parseRetryAfter,
  retryDelay,
  type BackoffStrategy,
  type RetryConfig,
} from './lib/retries.js';
// Listed by name: where a model shares a name with an error class (HTTPValidationError), the class wins.
export {
  APIError,
  AlreadyActiveSubscriptionError,
  AlreadyCanceledSubscription,
  BadRequest,
  ConnectionError,
  ExpiredCheckoutError,
  HTTPClientError,
  HTTPValidationError,
  InsufficientScope,
  InvalidRequestError,
  InvalidToken,
  InvoiceAlreadyExists,
  MethodNotAllowed,
  MissingInvoiceBillingDetails,
  NamedAPIError,
  NotOpenCheckout,
  NotPaidOrder,
  NotPermitted,
  PayloadTooLarge,
  PaymentError,
  RefundAmountTooHigh,
  RefundedAlready,
  RequestAbortedError,
  RequestTimeoutError,
  ResourceAlreadyExists,
  ResourceNotFound,
  ResponseValidationError,
  SDKError,
  SDKValidationError,
  SecurityError,
  TesseraError,
  TooManyRequests,
  IdempotencyKeyInUse,
  Unauthorized,
  UnexpectedClientError,
  UnsupportedMediaType,
  WebhookVerificationError,
  namedErrorClass,
  type HttpMeta,
  type ValidationIssue,
} from './lib/errors.js';
export {
  WEBHOOK_TOLERANCE_SECONDS,
  signWebhook,
  verifyWebhook,
  type VerifyOptions,
  type WebhookEvent,
  type WebhookHeaders,
} from './lib/webhooks.js';
