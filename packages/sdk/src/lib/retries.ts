/**
 * Retries with exponential backoff. Off by default; when configured, a call is retried on 429, 500,
 * 502, 503 and 504 (and, if asked, on connection errors and timeouts).
 */

export interface BackoffStrategy {
  /** Milliseconds before the first retry (500). */
  initialInterval: number;
  /** Upper bound of any single wait, Retry-After included (60 000). */
  maxInterval: number;
  /** Growth factor between consecutive waits (1.5). */
  exponent: number;
  /** No retry starts once this much time has passed since the first attempt (3 600 000). */
  maxElapsedTime: number;
}

export type RetryConfig =
  | { strategy: 'none' }
  | {
      strategy: 'backoff';
      backoff?: Partial<BackoffStrategy>;
      /** Also retry when no response arrives (connection refused, timeout). Default false. */
      retryConnectionErrors?: boolean;
    };

export const DEFAULT_BACKOFF: BackoffStrategy = {
  initialInterval: 500,
  maxInterval: 60_000,
  exponent: 1.5,
  maxElapsedTime: 3_600_000,
};

export const DEFAULT_RETRY_CODES: readonly number[] = [429, 500, 502, 503, 504];

/** Random extra wait added to every backoff interval, up to this many milliseconds. */
export const MAX_JITTER_MS = 1000;

/**
 * Wait before retry number `attempt` (0 for the first retry): initialInterval × exponent^attempt plus
 * jitter, capped at maxInterval. A positive Retry-After (seconds or HTTP date) replaces the computed
 * wait (still capped).
 */
export function retryDelay(
  attempt: number,
  backoff: BackoffStrategy,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number {
  const computed =
    retryAfterMs !== null && retryAfterMs > 0
      ? retryAfterMs
      : backoff.initialInterval * Math.pow(backoff.exponent, attempt) + random() * MAX_JITTER_MS;
  return Math.min(computed, backoff.maxInterval);
}

/** Retry-After in milliseconds, from delta-seconds or an HTTP date; null when absent or unusable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

export function resolveBackoff(config: RetryConfig | undefined): BackoffStrategy | null {
  if (!config || config.strategy !== 'backoff') return null;
  return { ...DEFAULT_BACKOFF, ...config.backoff };
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
