import { sql } from 'kysely';
import type { Subject } from '../../../platform/auth/subject.js';
import type { Executor } from '../../../platform/db/database.js';
import { likeContains } from '../../../platform/db/like.js';
import { paginate } from '../../../platform/db/paginate.js';
import type { OrderRow } from '../../orders/orders.repository.js';
import { ownedBySessionCustomer } from '../customer-portal.repository.js';
import type { CustomerOrderListParams } from './orders.schemas.js';

function owned(db: Executor, subject: Subject) {
  return db.selectFrom('orders').selectAll('orders').where(ownedBySessionCustomer(subject, 'orders.customer_id'));
}

export async function findOwnedOrder(db: Executor, subject: Subject, id: string): Promise<OrderRow | undefined> {
  return owned(db, subject).where('orders.id', '=', id).executeTakeFirst();
}

/** Locks the customer's order for the rest of the transaction (billing updates, invoice requests). */
export async function lockOwnedOrder(db: Executor, subject: Subject, id: string): Promise<OrderRow | undefined> {
  return owned(db, subject).where('orders.id', '=', id).forUpdate().executeTakeFirst();
}

export async function listOwnedOrders(db: Executor, subject: Subject, params: CustomerOrderListParams) {
  let query = owned(db, subject).innerJoin('products', 'products.id', 'orders.product_id');
  if (params.organization_id?.length) query = query.where('orders.organization_id', 'in', params.organization_id);
  if (params.product_id?.length) query = query.where('orders.product_id', 'in', params.product_id);
  if (params.subscription_id?.length) query = query.where('orders.subscription_id', 'in', params.subscription_id);
  const billingTypes = new Set(params.product_billing_type ?? []);
  if (billingTypes.size === 1) {
    query = query.where('products.recurring_interval', billingTypes.has('recurring') ? 'is not' : 'is', null);
  }
  if (params.query) query = query.where('products.name', 'ilike', likeContains(params.query));
  for (const sort of params.sorting) {
    const direction = sort.descending ? 'desc' : 'asc';
    switch (sort.key) {
      case 'created_at':
        query = query.orderBy('orders.created_at', direction);
        break;
      // `amount` is the deprecated alias of `net_amount`: both sort by it.
      case 'amount':
      case 'net_amount':
        query = query.orderBy('orders.net_amount', direction);
        break;
      case 'product':
        query = query.orderBy('products.name', direction);
        break;
      case 'subscription':
        query = query.orderBy(sql`orders.subscription_id`, (ob) =>
          sort.descending ? ob.desc().nullsLast() : ob.asc().nullsLast(),
        );
        break;
    }
  }
  return paginate(db, query.orderBy('orders.id'), params);
}
