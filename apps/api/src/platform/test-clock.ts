import type { Config } from '../config.js';
import { OffsetClock, type Clock } from './clock.js';
import type { Context } from './context.js';
import type { Executor } from './db/database.js';

/**
 * Test clocks (outside production only): an organization's clock may run ahead of the server's. Every
 * piece of work done for one organization — requests authenticated as it, its public checkout and license
 * key calls, its renewals, dunning and expiry — reads time from `organizationClock`. In production the
 * table is never read and the server's clock is everyone's.
 */
export async function clockOffsetSeconds(db: Executor, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('test_clocks')
    .select('offset_seconds')
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row?.offset_seconds ?? 0;
}

export async function organizationClock(
  db: Executor,
  config: Pick<Config, 'devMode'>,
  base: Clock,
  organizationId: string,
): Promise<Clock> {
  if (!config.devMode) return base;
  const offset = await clockOffsetSeconds(db, organizationId);
  return offset > 0 ? new OffsetClock(base, offset * 1000) : base;
}

/** The server's clock beneath an organization's test clock. */
export function serverClock(clock: Clock): Clock {
  return clock instanceof OffsetClock ? clock.base : clock;
}

/** The same context on the organization's clock (itself when there is no test clock). */
export async function onOrganizationClock(ctx: Context, organizationId: string): Promise<Context> {
  if (ctx.clock instanceof OffsetClock) return ctx; // already on an organization's clock
  const clock = await organizationClock(ctx.db, ctx.config, ctx.clock, organizationId);
  return clock === ctx.clock ? ctx : { ...ctx, clock };
}

/** Organizations whose clock runs ahead (the periodic jobs run their due work on their own clocks). */
export async function organizationsWithTestClocks(db: Executor): Promise<{ organizationId: string; offset: number }[]> {
  const rows = await db
    .selectFrom('test_clocks')
    .select(['organization_id', 'offset_seconds'])
    .where('offset_seconds', '>', 0)
    .execute();
  return rows.map((row) => ({ organizationId: row.organization_id, offset: row.offset_seconds }));
}
