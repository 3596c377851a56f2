import type { Subject } from '../../../platform/auth/subject.js';
import type { Executor } from '../../../platform/db/database.js';
import { likeContains } from '../../../platform/db/like.js';
import { paginate } from '../../../platform/db/paginate.js';
import type { SubscriptionRow } from '../../subscriptions/subscriptions.repository.js';
import { ownedBySessionCustomer } from '../customer-portal.repository.js';
import type { CustomerSubscriptionListParams } from './subscriptions.schemas.js';

/** The customer's subscriptions; as on the seller side, those never started are hidden. */
function owned(db: Executor, subject: Subject) {
  return db
    .selectFrom('subscriptions')
    .selectAll('subscriptions')
    .where('subscriptions.started_at', 'is not', null)
    .where(ownedBySessionCustomer(subject, 'subscriptions.customer_id'));
}

export async function findOwnedSubscription(
  db: Executor,
  subject: Subject,
  id: string,
): Promise<SubscriptionRow | undefined> {
  return owned(db, subject).where('subscriptions.id', '=', id).executeTakeFirst();
}

/** Locks the subscription for the rest of the transaction (cancel, uncancel, plan change). */
export async function lockOwnedSubscription(
  db: Executor,
  subject: Subject,
  id: string,
): Promise<SubscriptionRow | undefined> {
  return owned(db, subject).where('subscriptions.id', '=', id).forUpdate().executeTakeFirst();
}

// The `active` filter as the seller's list reads it: active or trialing, else ended or unpaid.
const ACTIVE = ['active', 'trialing'] as const;
const INACTIVE = ['past_due', 'canceled', 'unpaid'] as const;

export async function listOwnedSubscriptions(db: Executor, subject: Subject, params: CustomerSubscriptionListParams) {
  let query = owned(db, subject)
    .innerJoin('products', 'products.id', 'subscriptions.product_id')
    .innerJoin('organizations', 'organizations.id', 'subscriptions.organization_id');
  if (params.organization_id?.length)
    query = query.where('subscriptions.organization_id', 'in', params.organization_id);
  if (params.product_id?.length) query = query.where('subscriptions.product_id', 'in', params.product_id);
  if (params.active !== undefined)
    query = query.where('subscriptions.status', 'in', [...(params.active ? ACTIVE : INACTIVE)]);
  if (params.query) query = query.where('products.name', 'ilike', likeContains(params.query));
  for (const sort of params.sorting) {
    const direction = sort.descending ? 'desc' : 'asc';
    switch (sort.key) {
      case 'started_at':
        query = query.orderBy('subscriptions.started_at', direction);
        break;
      case 'amount':
        query = query.orderBy('subscriptions.amount', direction);
        break;
      case 'status':
        query = query.orderBy('subscriptions.status', direction);
        break;
      case 'organization':
        query = query.orderBy('organizations.slug', direction);
        break;
      case 'product':
        query = query.orderBy('products.name', direction);
        break;
    }
  }
  return paginate(db, query.orderBy('subscriptions.id'), params);
}
