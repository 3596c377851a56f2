import { z } from 'zod/v4';
import type { SubscriptionChangeKind } from '../../db/tables/subscription-changes.js';
import type { Context } from '../../platform/context.js';
import { orderedUuid } from './subscriptions.history.ids.js';
import { ResourceNotFound } from '../../platform/http/errors.js';
import { pageOf, type Page, type PageParams } from '../../platform/http/query.js';
import { iso } from '../../platform/http/schemas.js';
import {
  insertSubscriptionChange,
  listSubscriptionChanges,
  type SubscriptionChangeRow,
} from './subscriptions.history.repository.js';
import { findVisibleSubscription, type SubscriptionRow } from './subscriptions.repository.js';
import type { SubscriptionChange } from './subscriptions.schemas.js';

/**
 * A subscription's history (extension): one row per change, written in the transaction of the change,
 * so the history holds exactly the changes that committed. Who made it: the seller (a user or an
 * organization token), the customer (portal) or the system (renewals, dunning, trial ends, jobs).
 */
export async function recordSubscriptionChange(
  ctx: Context,
  row: Pick<SubscriptionRow, 'id' | 'organization_id' | 'customer_id'>,
  kind: SubscriptionChangeKind,
  details: Record<string, unknown> = {},
): Promise<void> {
  const kindOfSubject = ctx.subject.kind;
  const actor =
    kindOfSubject === 'user' || kindOfSubject === 'organization'
      ? 'seller'
      : kindOfSubject === 'customer'
        ? 'customer'
        : 'system';
  await insertSubscriptionChange(ctx.db, {
    id: orderedUuid(),
    created_at: ctx.clock.now(),
    organization_id: row.organization_id,
    subscription_id: row.id,
    customer_id: row.customer_id,
    kind,
    details: JSON.stringify({ actor, ...details }),
  });
}

export type SubscriptionChangeWire = z.input<typeof SubscriptionChange>;

export function serializeSubscriptionChange(row: SubscriptionChangeRow): SubscriptionChangeWire {
  const { actor, ...details } = (row.details ?? {}) as { actor?: string } & Record<string, unknown>;
  return {
    id: row.id,
    created_at: iso(row.created_at),
    subscription_id: row.subscription_id,
    kind: row.kind,
    actor: actor === 'seller' || actor === 'customer' ? actor : 'system',
    details,
  };
}

export async function listSubscriptionHistory(
  ctx: Context,
  id: string,
  params: PageParams,
): Promise<Page<SubscriptionChangeWire>> {
  const subscription = await findVisibleSubscription(ctx.db, ctx.subject, id);
  if (!subscription) throw new ResourceNotFound();
  const { rows, total } = await listSubscriptionChanges(ctx.db, subscription.id, params);
  return pageOf(rows.map(serializeSubscriptionChange), total, params);
}
