import type { Insertable, Selectable } from 'kysely';
import type { SubscriptionChangesTable } from '../../db/tables/subscription-changes.js';
import type { Executor } from '../../platform/db/database.js';
import { paginate } from '../../platform/db/paginate.js';
import type { PageParams } from '../../platform/http/query.js';

export type SubscriptionChangeRow = Selectable<SubscriptionChangesTable>;

export async function insertSubscriptionChange(db: Executor, row: Insertable<SubscriptionChangesTable>): Promise<void> {
  await db.insertInto('subscription_changes').values(row).execute();
}

/** A subscription's changes, newest first (the subscription was found visible by the caller). */
export function listSubscriptionChanges(db: Executor, subscriptionId: string, params: PageParams) {
  return paginate(
    db,
    db
      .selectFrom('subscription_changes')
      .selectAll()
      .where('subscription_id', '=', subscriptionId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc'),
    params,
  );
}
