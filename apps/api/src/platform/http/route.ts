import type { Readable } from 'node:stream';
import { z } from 'zod/v4';
import type { AuthRequirement, Subject } from '../auth/subject.js';
import type { Context } from '../context.js';

/**
 * A route says five things: method and path, auth (subjects and scopes), input schemas, one service
 * call, and the serializer with its status. Everything else (transactions, parsing, 422s, auth checks,
 * OpenAPI) is the platform's job.
 */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export type ErrorName =
  | 'ResourceNotFound'
  | 'NotPermitted'
  | 'Unauthorized'
  | 'BadRequest'
  | 'ResourceAlreadyExists'
  | 'ResourceUnavailable'
  | 'TooManyRequests'
  | 'AlreadyActiveSubscriptionError'
  | 'NotOpenCheckout'
  | 'ExpiredCheckoutError'
  | 'PaymentError'
  | 'AlreadyCanceledSubscription'
  | 'RefundAmountTooHigh'
  | 'RefundedAlready'
  | 'InvoiceAlreadyExists'
  | 'MissingInvoiceBillingDetails'
  | 'NotPaidOrder'
  | 'PaymentAlreadyInProgress'
  | 'OrderNotEligibleForRetry'
  | 'DisputeNotOpenError';

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
}

/** What a handler may return besides the body: a cookie to set or clear, extra headers. */
export interface RouteReply {
  setCookie(name: string, value: string, options: CookieOptions): void;
  clearCookie(name: string, options: CookieOptions): void;
  header(name: string, value: string): void;
  /** Answers with a redirect to `url` instead of the JSON body (the handler's return value is ignored). */
  redirect(url: string, status?: 302 | 303 | 307): void;
  /**
   * Answers 202 with no body instead of the JSON body (the handler's return value is ignored): what was
   * asked for is being prepared (a receipt rendered by a job). Only for a route with `accepted: true`.
   * Typed `never` so that a handler can answer `return … ?? reply.accepted()`: what it returns is not sent.
   */
  accepted(): never;
}

/**
 * Thrown by a handler whose writes must be kept although the request fails (a declined payment is
 * recorded, then the buyer gets the error): the transaction commits, then `error` is answered.
 */
export class CommitThenFail extends Error {
  constructor(readonly error: Error) {
    super(error.message);
  }
}

export interface CookieOptions {
  path: string;
  httpOnly: boolean;
  sameSite: 'lax' | 'strict';
  secure: boolean;
  expires?: Date;
}

export interface RouteDefinition<
  P extends AnyObject | undefined = AnyObject | undefined,
  Q extends AnyObject | undefined = AnyObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: HttpMethod;
  /** Canonical path as clients call it, with `{param}` placeholders (`/v1/organizations/{id}`). */
  path: string;
  operationId: string;
  summary: string;
  tags: string[];
  auth: AuthRequirement;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * A fast check of `body` for a hot route: answers what `body` would parse a well-formed body to, or
   * `undefined` for anything else, which `body` then parses (and reports) as usual.
   */
  fastBody?: (body: unknown) => (B extends z.ZodType ? z.output<B> : undefined) | undefined;
  /** Extra documented error responses besides 401/403/422. */
  errors?: ErrorName[];
  status: 200 | 201 | 202 | 204;
  response: R;
  /** The route may also answer 202 with no body (`reply.accepted()`), documented beside `status`. */
  accepted?: boolean;
  /**
   * true: a transaction even for a GET (reads that must see a consistent snapshot). false: none even for
   * a write — the handler opens its own short transactions (work that calls a processor between them).
   * Default: writes run in one transaction, reads do not.
   */
  transaction?: boolean;
  /**
   * An organization token's organization is read with the token, in the authentication's one statement,
   * and handed to the handler as `subject.organization` (a read that needs nothing else: one round trip
   * instead of two). The row is as it was when the request was authenticated: for reads, and for writes
   * that read the organization before their transaction anyway (checkout creation).
   */
  readsTokenOrganization?: boolean;
  /**
   * A read answered from the node's memory while what it depends on holds (platform/http/response-cache.ts):
   * the key its JSON is kept under, which must name everything the answer depends on — the subject's
   * organization, a version the token's statement read with it (`readsTokenOrganization`) that moves
   * whenever any of it changes, and the inputs — or undefined to answer afresh.
   */
  cachedUnder?: (
    subject: Subject,
    input: RouteInput<
      P extends AnyObject ? z.output<P> : undefined,
      Q extends AnyObject ? z.output<Q> : undefined,
      B extends z.ZodType ? z.output<B> : undefined
    >,
  ) => string | undefined;
  /** Hidden from the public OpenAPI document (dashboard-only helpers stay documented: false by default). */
  internal?: boolean;
  /** Registered only outside production (`NODE_ENV` not `production`): development tools. */
  developmentOnly?: boolean;
  /** Not in the reference's API: marked `x-tessera-extension: true` in OpenAPI. */
  extension?: boolean;
  /**
   * The body's media type when not JSON: the handler returns the text, or a Readable streamed as it is
   * produced (a CSV export, platform/http/csv.ts).
   */
  produces?: 'text/csv';
  /**
   * Also answers JSON: a handler that returns a string (not a stream) is sent as a JSON string, for the
   * clients that ask for `application/json` (SDK 0.33.2's `subscriptions.export`). Documented with both.
   */
  alsoJson?: boolean;
  /** The request body's media type when not JSON. */
  consumes?: 'application/x-www-form-urlencoded';
  /**
   * OAuth's own wire (RFC 6749, 7009, 7591, 7592, 7662): served by a plain route of modules/oauth2 and
   * only described here, so registerRoutes leaves it alone. Its errors are `{error, error_description}`
   * with these statuses, except a 422: the API's validation error of a query read with the contract's
   * schema (the clients list's `page` and `limit`). It takes no Idempotency-Key.
   */
  oauth2?: { errors: (400 | 401 | 404 | 422 | 429)[] };
  handler: (
    ctx: Context,
    input: RouteInput<
      P extends AnyObject ? z.output<P> : undefined,
      Q extends AnyObject ? z.output<Q> : undefined,
      B extends z.ZodType ? z.output<B> : undefined
    >,
    reply: RouteReply,
    // A Readable is a body streamed as it is produced (`produces`).
  ) => Promise<R extends z.ZodUndefined ? void : R extends z.ZodType ? z.input<R> | Readable : void>;
}

export function defineRoute<
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
>(definition: RouteDefinition<P, Q, B, R>): RouteDefinition<P, Q, B, R> {
  return definition;
}

// Routes of every shape live in one list; the platform treats them uniformly.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteDefinition<any, any, any, any>;

export const NoContent = undefined;
