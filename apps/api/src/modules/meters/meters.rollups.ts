import { z } from 'zod/v4';
import type { Context } from '../../platform/context.js';
import { defineJob } from '../../platform/jobs/queue.js';
import type { PeriodicTask } from '../../platform/jobs/periodic.js';
import type { MeterAggregation, MeterFilter } from '../customer-meters/customer-meters.window.js';
import {
  findMetersByIds,
  findMetersToRoll,
  lockMeter,
  lockRollupsExclusive,
  rebuildMeterRollups,
} from './meter-rollups.repository.js';

/**
 * Builds a meter's rollups from its organization's events, under the organization's exclusive rollup
 * lock (ingests in flight commit first; later ones wait, then maintain the built rollups). Nothing to
 * do when they were built meanwhile (by another run) or the meter is gone.
 */
export async function buildMeterRollups(ctx: Context, organizationId: string, meterId: string): Promise<boolean> {
  await lockRollupsExclusive(ctx.db, organizationId);
  const meter = await lockMeter(ctx.db, meterId);
  if (!meter || meter.rollups_built_at !== null) return false;
  await rebuildMeterRollups(
    ctx.db,
    { ...meter, filter: meter.filter as MeterFilter, aggregation: meter.aggregation as MeterAggregation },
    ctx.clock.now(),
  );
  return true;
}

/**
 * `meters.rollups`: after a meter is created or changes what it counts, its rollups are built (one
 * transaction per meter). Without a meter id (the periodic sweep), every meter not built yet is: those
 * from before the rollups existed, or whose job failed.
 */
export const meterRollupsJob = defineJob({
  name: 'meters.rollups',
  schema: z.object({ meter_id: z.uuid().optional() }),
  transaction: false,
  retryLimit: 5,
  retryDelaySeconds: 5,
  retryBackoff: true,
  handle: async (ctx, data, run) => {
    const meters = data.meter_id ? await findMetersByIds(ctx.db, [data.meter_id]) : await findMetersToRoll(ctx.db, 100);
    for (const meter of meters) {
      await run!.transaction((tx) => buildMeterRollups(tx, meter.organization_id, meter.id));
    }
  },
});

export const meterRollupsSchedule: PeriodicTask = {
  job: meterRollupsJob as unknown as PeriodicTask['job'],
  everySeconds: 10 * 60,
};
