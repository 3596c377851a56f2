import { sql, type Insertable, type Selectable } from 'kysely';
import type { SubscriptionPricesTable, SubscriptionsTable } from '../../db/tables/checkouts.js';
import type { Executor } from '../../platform/db/database.js';

export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type SubscriptionPriceRow = Selectable<SubscriptionPricesTable>;

/** Statuses that are billed: a customer holding one "has an active subscription". */
export const BILLABLE_STATUSES = ['trialing', 'active', 'past_due'] as const;

export async function insertSubscription(
  db: Executor,
  row: Insertable<SubscriptionsTable>,
  prices: readonly { product_price_id: string; amount: number }[],
): Promise<SubscriptionRow> {
  const inserted = await db.insertInto('subscriptions').values(row).returningAll().executeTakeFirstOrThrow();
  if (prices.length > 0) {
    await db
      .insertInto('subscription_prices')
      .values(prices.map((price, position) => ({ subscription_id: row.id, position, ...price })))
      .execute();
  }
  return inserted;
}

export async function findSubscriptionsByIds(db: Executor, ids: readonly string[]): Promise<SubscriptionRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

/** A subscription of the organization by id (checkout upgrades name one). */
export async function findOrganizationSubscription(db: Executor, organizationId: string, id: string) {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The price snapshot of each subscription, in order. */
export async function findSubscriptionPrices(
  db: Executor,
  subscriptionIds: readonly string[],
): Promise<Map<string, SubscriptionPriceRow[]>> {
  const bySubscription = new Map<string, SubscriptionPriceRow[]>(subscriptionIds.map((id) => [id, []]));
  if (subscriptionIds.length === 0) return bySubscription;
  const rows = await db
    .selectFrom('subscription_prices')
    .selectAll()
    .where('subscription_id', 'in', [...subscriptionIds])
    .orderBy('subscription_id')
    .orderBy('position')
    .execute();
  for (const row of rows) bySubscription.get(row.subscription_id)?.push(row);
  return bySubscription;
}

/**
 * Whether the customer (by id, or any live customer of the organization with this email,
 * case-insensitively) holds a billable subscription in the organization.
 */
export async function hasBillableSubscription(
  db: Executor,
  organizationId: string,
  customerId: string | null,
  email: string | null,
): Promise<boolean> {
  if (!customerId && !email) return false;
  const row = await db
    .selectFrom('subscriptions')
    .select('subscriptions.id')
    .where('subscriptions.organization_id', '=', organizationId)
    .where('subscriptions.status', 'in', [...BILLABLE_STATUSES])
    .where((eb) => {
      const matches = [];
      if (customerId) matches.push(eb('subscriptions.customer_id', '=', customerId));
      if (email) {
        matches.push(
          eb(
            'subscriptions.customer_id',
            'in',
            eb
              .selectFrom('customers')
              .select('customers.id')
              .where('customers.organization_id', '=', organizationId)
              .where('customers.deleted_at', 'is', null)
              .where(sql`lower(customers.email)`, '=', email.toLowerCase()),
          ),
        );
      }
      return eb.or(matches);
    })
    .executeTakeFirst();
  return row !== undefined;
}
