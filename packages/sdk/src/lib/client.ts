import type { RetryConfig } from './retries.js';

/** The subset of `fetch` the SDK uses; pass your own to add logging, proxies or test doubles. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface ClientOptions {
  /** Base URL of the Tessera server, e.g. `http://localhost:8000` (the operation path is appended). */
  serverURL?: string;
  /**
   * Organization access token (`polar_oat_…`) or OAuth2 access token, or a function returning one.
   * Defaults to the `TESSERA_ACCESS_TOKEN` environment variable where one exists (Node).
   */
  accessToken?: string | (() => string | Promise<string>);
  /** Milliseconds before a request attempt is given up ('Request timed out'). None by default. */
  timeoutMs?: number;
  /** Retries; none by default. */
  retryConfig?: RetryConfig;
  /** Statuses that are retried when retries are configured (default 429, 500, 502, 503, 504). */
  retryCodes?: number[];
  /** A custom fetch (defaults to the global one). */
  fetch?: FetchLike;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

/** Per-call options; they override the client's. */
export interface RequestOptions {
  serverURL?: string;
  timeoutMs?: number;
  /** Aborting it rejects the call with 'Request aborted by client'. */
  signal?: AbortSignal;
  retries?: RetryConfig;
  retryCodes?: number[];
  /**
   * Idempotency-Key of a write (POST, PATCH, DELETE): a retry with the same key and body gets the first
   * answer again instead of writing twice. When retries are configured, writes get a fresh key per call
   * automatically; give one to make retries across calls (or processes) safe too.
   */
  idempotencyKey?: string;
  /** Customer session token (`polar_cst_…`) for customer-portal operations; sent as the bearer. */
  customerSession?: string;
  headers?: Record<string, string>;
  /** Passed through to fetch (credentials, mode, cache, …). */
  fetchOptions?: Omit<RequestInit, 'method' | 'body' | 'headers' | 'signal'>;
}

/** Options of customer-portal operations: a customer session is required. */
export type CustomerSessionRequestOptions = RequestOptions & { customerSession: string };

/**
 * The configured client every operation function takes as its first argument. It holds options
 * only: import just the operations you call and the rest stays out of your bundle.
 */
export class TesseraCore {
  readonly options: Readonly<ClientOptions>;

  constructor(options: ClientOptions = {}) {
    this.options = { ...options };
  }

  /** The access token from the options, else from `TESSERA_ACCESS_TOKEN`; undefined when neither is set. */
  async accessToken(): Promise<string | undefined> {
    const configured = this.options.accessToken;
    const token = typeof configured === 'function' ? await configured() : configured;
    return token || environmentToken();
  }
}

function environmentToken(): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.TESSERA_ACCESS_TOKEN || undefined;
}
