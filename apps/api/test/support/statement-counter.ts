import pg from 'pg';
import { expect } from 'vitest';
import { BeginWithQuery } from '../../src/platform/db/named-statements.js';
import type { TestServer } from '../harness.js';

/**
 * Test support: counts the SQL statements a piece of work sends to the database. Every statement goes
 * through `pg`'s `Client.query` (Kysely's driver, the pool, the embedded database's socket alike); the
 * ones sent while `count(work)` runs are recorded with their text, `BEGIN` and `COMMIT` included (each
 * is a round trip). Everything the process sends meanwhile counts (a request's context does not survive
 * `inject`), so count one piece of work at a time on a server started with `work: false`. On a PostgreSQL
 * server a transaction's BEGIN travels in the round trip of its first statement (named-statements.ts,
 * BeginWithQuery); it is counted as the statement it is, so the counts are the same on both databases.
 */
const originalQuery = pg.Client.prototype.query;

/**
 * `startTestServer` options for a server whose statements are counted: no workers or periodic jobs, and
 * the API-wide rate limit's counts (written in the background once a second) never written meanwhile.
 */
export const COUNTED_SERVER = {
  work: false,
  config: { rateLimits: { apiPerMinute: 1_000_000, scale: 1000, flushMs: 3_600_000 } },
};
let recording: string[] | undefined;

export interface StatementCounter {
  /** Runs `work` and returns its result with the statements sent meanwhile, in order. */
  count<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }>;
  uninstall(): void;
}

export function installStatementCounter(): StatementCounter {
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (recording) {
      const first = args[0] as string | { text?: string };
      if (first instanceof BeginWithQuery) recording.push(first.begin);
      recording.push(typeof first === 'string' ? first : (first?.text ?? String(first)));
    }
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
  return {
    async count(work) {
      if (recording) throw new Error('statement counter: one count at a time');
      const statements: string[] = [];
      recording = statements;
      try {
        return { result: await work(), statements };
      } finally {
        recording = undefined;
      }
    },
    uninstall() {
      pg.Client.prototype.query = originalQuery;
    },
  };
}

/**
 * Waits until the organization's access token has its last use written. The server writes it off the
 * request's path, at most once a minute (platform/auth/authenticate.ts): after the token's first request,
 * that write could otherwise land in the next count, or a request that still saw no last use would write
 * it again.
 */
export async function tokenLastUseWritten(server: TestServer, organizationId: string): Promise<void> {
  const lastUse = async () =>
    (
      await server.runtime.database.db
        .selectFrom('organization_access_tokens')
        .select('last_used_at')
        .where('organization_id', '=', organizationId)
        .executeTakeFirstOrThrow()
    ).last_used_at;
  await expect.poll(lastUse).not.toBeNull();
}
