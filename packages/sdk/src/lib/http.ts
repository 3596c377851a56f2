import type { z } from 'zod/v4';
import type { RequestOptions, TesseraCore } from './client.js';
import {
  ConnectionError,
  HTTPValidationError,
  InvalidRequestError,
  RequestAbortedError,
  RequestTimeoutError,
  ResponseValidationError,
  SDKError,
  SDKValidationError,
  SecurityError,
  UnexpectedClientError,
  namedErrorClass,
  type HttpMeta,
  type ValidationIssue,
} from './errors.js';
import { DEFAULT_RETRY_CODES, parseRetryAfter, resolveBackoff, retryDelay, sleep } from './retries.js';

/**
 * The description of one operation, generated from openapi.json (src/generated/operations.ts). The
 * runtime below interprets it: validate, encode, authenticate, send, retry, match, validate.
 */
export interface Operation<Req, Res> {
  /** The operationId, e.g. 'organizations:list'. */
  id: string;
  method: string;
  /** Path template with `{name}` placeholders. */
  path: string;
  parameters: readonly ParameterSpec[];
  /** Validates the whole request object (parameters and `body`). */
  request: z.ZodType;
  body?: { mediaType: string; required: boolean };
  /** Success responses; no media type means no body (204, 302); other than JSON is returned as text. */
  responses: readonly { status: number; mediaType?: string; schema?: z.ZodType }[];
  /** Described error statuses and their body schemas. */
  errors: Readonly<Record<number, z.ZodType | undefined>>;
  /** Alternatives, each a list of scheme kinds; an empty alternative admits anonymous calls. */
  security: readonly (readonly SecurityKind[])[];
  /** Phantom types only. */
  readonly types?: { request: Req; response: Res };
}

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header';
  style?: 'form' | 'deepObject' | 'simple';
  explode?: boolean;
}

/** bearer: the access token; customer: a customer session; cookie: a dashboard session cookie. */
export type SecurityKind = 'bearer' | 'customer' | 'cookie';

const NAMED_ERROR = (value: unknown): value is { error: string; detail: string } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { error?: unknown }).error === 'string' &&
  typeof (value as { detail?: unknown }).detail === 'string';

/** Performs an operation and returns its validated response body (undefined when it has none). */
export async function call<Req, Res>(
  client: TesseraCore,
  operation: Operation<Req, Res>,
  request: Req,
  options: RequestOptions = {},
): Promise<Res> {
  const parsed = operation.request.safeParse(request ?? {});
  if (!parsed.success) throw new SDKValidationError(request, parsed.error);
  const input = parsed.data as Record<string, unknown>;

  const baseURL = options.serverURL ?? client.options.serverURL;
  if (!baseURL) throw new InvalidRequestError();
  let url: URL;
  try {
    url = new URL(encodePath(operation, input).replace(/^\//, ''), baseURL.replace(/\/*$/, '/'));
  } catch (cause) {
    throw new InvalidRequestError('Invalid base URL', { cause });
  }
  url.search = encodeQuery(operation, input);

  const headers = new Headers(client.options.headers);
  headers.set('accept', 'application/json');
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  for (const parameter of operation.parameters) {
    const value = input[parameter.name];
    if (parameter.in === 'header' && value !== undefined && value !== null) headers.set(parameter.name, scalar(value));
  }
  const authorization = await resolveAuthorization(client, operation, options);
  if (authorization) headers.set('authorization', authorization);
  setIdempotencyKey(headers, operation.method, options, client);

  let body: string | undefined;
  if (operation.body && input.body !== undefined) {
    headers.set('content-type', operation.body.mediaType);
    body =
      operation.body.mediaType === 'application/x-www-form-urlencoded'
        ? formBody(input.body as Record<string, unknown>)
        : JSON.stringify(input.body);
  }

  const { response, text } = await send(client, url.toString(), { method: operation.method, headers, body }, options);
  return match(operation, response, text) as Res;
}

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * Idempotency-Key on writes: the one given (`options.idempotencyKey`, a header, or the operation's
 * `Idempotency-Key` parameter), else a fresh one whenever the call may be retried, so that every attempt
 * of one call carries the same key and the server performs the write at most once.
 */
function setIdempotencyKey(headers: Headers, method: string, options: RequestOptions, client: TesseraCore): void {
  if (!WRITES.has(method.toUpperCase())) return;
  if (options.idempotencyKey) {
    headers.set(IDEMPOTENCY_KEY_HEADER, options.idempotencyKey);
    return;
  }
  if (headers.has(IDEMPOTENCY_KEY_HEADER)) return;
  const retries = options.retries ?? client.options.retryConfig;
  if (retries?.strategy === 'backoff') headers.set(IDEMPOTENCY_KEY_HEADER, newIdempotencyKey());
}

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** A random UUID v4 (Web Crypto, present in Node 20 and browsers). */
export function newIdempotencyKey(): string {
  const webCrypto = (globalThis as { crypto?: Crypto }).crypto;
  if (webCrypto?.randomUUID) return webCrypto.randomUUID();
  const bytes = new Uint8Array(16);
  if (webCrypto?.getRandomValues) webCrypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function encodePath(operation: Operation<unknown, unknown>, input: Record<string, unknown>): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(scalar(input[name])));
}

function scalar(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** Query parameters in declaration order: form/explode repeats the key, deepObject is `name[key]=v`. */
export function encodeQuery(operation: Operation<unknown, unknown>, input: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'query') continue;
    const value = input[parameter.name];
    if (value === undefined || value === null) continue;
    if (parameter.style === 'deepObject' && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
        for (const item of Array.isArray(entry) ? entry : [entry])
          if (item !== undefined && item !== null) search.append(`${parameter.name}[${key}]`, scalar(item));
      }
    } else if (Array.isArray(value)) {
      if (parameter.explode === false) search.append(parameter.name, value.map(scalar).join(','));
      else for (const item of value) search.append(parameter.name, scalar(item));
    } else {
      search.append(parameter.name, scalar(value));
    }
  }
  return search.toString();
}

function formBody(value: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, entry] of Object.entries(value ?? {})) {
    if (entry === undefined || entry === null) continue;
    for (const item of Array.isArray(entry) ? entry : [entry]) search.append(key, scalar(item));
  }
  return search.toString();
}

/**
 * Picks the credentials the operation admits: a customer session for portal operations, else the
 * access token; cookie-authenticated operations rely on the environment (a browser sends the cookie).
 * The organization token is never sent to an operation that does not admit it.
 */
async function resolveAuthorization(
  client: TesseraCore,
  operation: Operation<unknown, unknown>,
  options: RequestOptions,
): Promise<string | undefined> {
  const admits = (kind: SecurityKind) => operation.security.some((alternative) => alternative.includes(kind));
  if (admits('customer') && options.customerSession) return bearer(options.customerSession);
  if (admits('bearer')) {
    const token = await client.accessToken();
    if (token) return bearer(token);
  }
  const anonymous =
    operation.security.length === 0 || operation.security.some((alternative) => alternative.length === 0);
  if (anonymous || admits('cookie')) return undefined;
  throw new SecurityError();
}

function bearer(token: string): string {
  return /^bearer /i.test(token) ? token : `Bearer ${token}`;
}

interface Received {
  response: Response;
  text: string;
}

/** Sends with timeout, abort and retries; reads the whole body within the same deadline. */
async function send(
  client: TesseraCore,
  url: string,
  init: { method: string; headers: Headers; body?: string },
  options: RequestOptions,
): Promise<Received> {
  const backoff = resolveBackoff(options.retries ?? client.options.retryConfig);
  const retryConfig = options.retries ?? client.options.retryConfig;
  const retryConnectionErrors = retryConfig?.strategy === 'backoff' && retryConfig.retryConnectionErrors === true;
  const retryCodes = options.retryCodes ?? client.options.retryCodes ?? DEFAULT_RETRY_CODES;
  const timeoutMs = options.timeoutMs ?? client.options.timeoutMs ?? -1;
  const fetchImpl = client.options.fetch ?? ((input: string, requestInit: RequestInit) => fetch(input, requestInit));
  const started = Date.now();

  for (let attempt = 0; ; attempt++) {
    let received: Received | undefined;
    let failure: unknown;
    try {
      received = await attemptOnce(fetchImpl, url, init, options, timeoutMs);
    } catch (error) {
      const retryable = error instanceof ConnectionError || error instanceof RequestTimeoutError;
      if (!backoff || !retryConnectionErrors || !retryable) throw error;
      failure = error;
    }
    if (received && (!backoff || !retryCodes.includes(received.response.status))) return received;

    const retryAfter = received ? parseRetryAfter(received.response.headers.get('retry-after')) : null;
    const delay = retryDelay(attempt, backoff!, retryAfter);
    if (Date.now() - started + delay > backoff!.maxElapsedTime) {
      if (received) return received;
      throw failure;
    }
    try {
      await sleep(delay, options.signal);
    } catch (cause) {
      throw new RequestAbortedError({ cause });
    }
  }
}

async function attemptOnce(
  fetchImpl: (input: string, init: RequestInit) => Promise<Response>,
  url: string,
  init: { method: string; headers: Headers; body?: string },
  options: RequestOptions,
  timeoutMs: number,
): Promise<Received> {
  const user = options.signal;
  if (user?.aborted) throw new RequestAbortedError({ cause: user.reason });
  const controller = new AbortController();
  let timedOut = false;
  const timer =
    timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs)
      : undefined;
  const onAbort = () => controller.abort(user?.reason);
  user?.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await fetchImpl(url, {
      ...options.fetchOptions,
      method: init.method,
      headers: init.headers,
      body: init.body,
      signal: controller.signal,
    });
    const text = await response.text();
    return { response, text };
  } catch (cause) {
    if (timedOut) throw new RequestTimeoutError({ cause });
    if (user?.aborted) throw new RequestAbortedError({ cause });
    if (cause instanceof TypeError) throw new ConnectionError({ cause });
    throw new UnexpectedClientError({ cause });
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    user?.removeEventListener('abort', onAbort);
  }
}

function isJson(response: Response): boolean {
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

function parseJson(meta: HttpMeta): { ok: true; value: unknown } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: JSON.parse(meta.body) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Success status → validated body; described error status → typed error; anything else → SDKError. */
function match(operation: Operation<unknown, unknown>, response: Response, text: string): unknown {
  const meta: HttpMeta = { response, body: text };
  const status = response.status;
  const success = operation.responses.find((candidate) => candidate.status === status);
  if (success) {
    if (!success.mediaType) return undefined;
    if (success.mediaType !== 'application/json') {
      const type = response.headers.get('content-type') ?? '';
      if (!type.toLowerCase().startsWith(success.mediaType))
        throw new SDKError('Unexpected Status or Content-Type', meta);
      return text;
    }
    if (!isJson(response)) throw new SDKError('Unexpected Status or Content-Type', meta);
    const json = parseJson(meta);
    if (!json.ok) throw new ResponseValidationError(meta, text, { cause: json.error });
    if (!success.schema) return json.value;
    const validated = success.schema.safeParse(json.value);
    if (!validated.success) throw new ResponseValidationError(meta, json.value, { cause: validated.error });
    return validated.data;
  }

  if (status >= 400 && status < 600) {
    const described = status in operation.errors;
    if (isJson(response)) {
      const json = parseJson(meta);
      if (json.ok && NAMED_ERROR(json.value)) {
        // `{error, detail}` names the error whatever the status: one class per catalogue name.
        const ErrorClass = namedErrorClass(json.value.error);
        throw new ErrorClass(meta, json.value);
      }
      if (described) {
        if (!json.ok) throw new ResponseValidationError(meta, text, { cause: json.error });
        const schema = operation.errors[status];
        const validated = schema ? schema.safeParse(json.value) : { success: true as const, data: json.value };
        if (!validated.success) throw new ResponseValidationError(meta, json.value, { cause: validated.error });
        const detail = (validated.data as { detail?: unknown } | null)?.detail;
        if (status === 422 && Array.isArray(detail)) throw new HTTPValidationError(meta, detail as ValidationIssue[]);
      }
    }
    throw new SDKError(`API error occurred: Status ${status}`, meta);
  }
  throw new SDKError('Unexpected Status or Content-Type', meta);
}
