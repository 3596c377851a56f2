import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';

/** Moves an organization's clock forward (creating it at zero first); returns the new offset. */
export async function addClockOffset(db: Executor, organizationId: string, seconds: number, at: Date) {
  const row = await db
    .insertInto('test_clocks')
    .values({ organization_id: organizationId, created_at: at, modified_at: null, offset_seconds: seconds })
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet({
        offset_seconds: sql<number>`test_clocks.offset_seconds + ${seconds}`,
        modified_at: at,
      }),
    )
    .returning('offset_seconds')
    .executeTakeFirstOrThrow();
  return row.offset_seconds;
}
