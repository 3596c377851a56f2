import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { DB } from '../../src/db/schema.js';
import type { SubscriptionWire } from '../../src/modules/subscriptions/subscriptions.serializer.js';
import { ADDRESS, CARDS, checkoutFactory, confirmationToken } from './checkouts.js';
import { productFactory } from './products.js';
import type { TestServer } from '../harness.js';

export interface SubscriptionFactoryOptions {
  productId?: string;
  interval?: 'month' | 'year';
  price?: number;
  card?: string;
  email?: string;
  discountId?: string;
}

/**
 * A subscription as a buyer starts one: a recurring product ($10/month unless told), a checkout, a
 * confirmation with a card saved for renewals. Returns the subscription as the API shows it.
 */
export async function subscriptionFactory(
  server: TestServer,
  organizationId: string,
  options: SubscriptionFactoryOptions = {},
): Promise<SubscriptionWire> {
  const productId =
    options.productId ??
    (
      await productFactory(server, organizationId, {
        recurring_interval: options.interval ?? 'month',
        prices: [{ amount_type: 'fixed', price_amount: options.price ?? 1000 }],
      })
    ).product.id;
  const checkout = await checkoutFactory(server, organizationId, [productId], {
    ...(options.discountId ? { discount_id: options.discountId } : {}),
  });
  const response = await server.inject({
    method: 'POST',
    url: `/v1/checkouts/client/${checkout.client_secret}/confirm`,
    payload: {
      customer_email: options.email ?? `buyer-${checkout.id.slice(0, 8)}@example.com`,
      customer_name: 'Sam Buyer',
      customer_billing_address: ADDRESS,
      confirmation_token_id: await confirmationToken(server, options.card ?? CARDS.visa),
    },
  });
  if (response.statusCode !== 200) throw new Error(`confirm: ${response.statusCode} ${response.body}`);
  const row = await server.runtime.database.db
    .selectFrom('subscriptions')
    .select('id')
    .where('checkout_id', '=', checkout.id)
    .executeTakeFirstOrThrow();
  const ctx = server.context({
    kind: 'organization',
    organizationId,
    tokenId: 'factory',
    scopes: new Set(['subscriptions:read']),
  });
  const { getSubscription } = await import('../../src/modules/subscriptions/subscriptions.service.js');
  return getSubscription(ctx, row.id);
}

/**
 * `count` more subscriptions like `subscriptionId` (same product, price snapshot and period), each of a
 * customer of its own with a saved card of the simulated processor, written in SQL: volumes a test or a
 * benchmark could not buy one checkout at a time. With `history`, each also gets a copy of the first
 * one's orders (with their items and payments) and the simulated processor's charges and keys, as a
 * database that sold them one by one holds: the tables a renewal run writes to then start with as many
 * rows as subscriptions, not empty. Returns the new subscriptions' ids.
 */
export async function copySubscriptions(
  server: TestServer,
  subscriptionId: string,
  count: number,
  options: { history?: boolean } = {},
): Promise<string[]> {
  return server.runtime.database.db.transaction().execute(async (tx) => {
    await sql`
      CREATE TEMP TABLE subscription_copies ON COMMIT DROP AS
      SELECT n, gen_random_uuid() AS customer_id, gen_random_uuid() AS subscription_id,
             'pm_copy_' || replace(gen_random_uuid()::text, '-', '') AS payment_method_id
      FROM generate_series(1, ${count}) AS n`.execute(tx);
    await sql`
      INSERT INTO customers (id, created_at, organization_id, email, name, metadata)
      SELECT c.customer_id, s.created_at, s.organization_id, 'copy-' || c.customer_id || '@example.com',
             'Copy ' || c.n, '{}'
      FROM subscription_copies c, subscriptions s WHERE s.id = ${subscriptionId}`.execute(tx);
    await sql`
      INSERT INTO simulated_payment_methods (id, created_at, customer_id, brand, last4, exp_month, exp_year, outcome)
      SELECT c.payment_method_id, m.created_at, c.customer_id::text, m.brand, m.last4, m.exp_month, m.exp_year, m.outcome
      FROM subscription_copies c, simulated_payment_methods m, subscriptions s
      WHERE s.id = ${subscriptionId} AND m.id = s.payment_method_id`.execute(tx);
    await sql`
      INSERT INTO subscriptions (id, created_at, organization_id, customer_id, product_id, amount, currency,
        recurring_interval, status, current_period_start, current_period_end, anchor_day, started_at,
        metadata, custom_field_data, payment_method_id)
      SELECT c.subscription_id, s.created_at, s.organization_id, c.customer_id, s.product_id, s.amount,
        s.currency, s.recurring_interval, s.status, s.current_period_start, s.current_period_end,
        s.anchor_day, s.started_at, s.metadata, s.custom_field_data, c.payment_method_id
      FROM subscription_copies c, subscriptions s WHERE s.id = ${subscriptionId}`.execute(tx);
    await sql`
      INSERT INTO subscription_prices (subscription_id, product_price_id, position, amount)
      SELECT c.subscription_id, p.product_price_id, p.position, p.amount
      FROM subscription_copies c, subscription_prices p WHERE p.subscription_id = ${subscriptionId}`.execute(tx);
    if (options.history) {
      // A copy's ids are made from the original's and the copy's number, so an item finds its order's copy.
      const orders = sql`SELECT id FROM orders WHERE subscription_id = ${subscriptionId}`;
      await copyEach(
        tx,
        'orders',
        sql`orders r WHERE r.subscription_id = ${subscriptionId}`,
        sql`id = md5(id::text || copy_n)::uuid, customer_id = copy_customer_id, subscription_id = copy_subscription_id,
            checkout_id = NULL, invoice_number = invoice_number || '-' || copy_n`,
      );
      await copyEach(
        tx,
        'order_items',
        sql`order_items r WHERE r.order_id IN (${orders})`,
        sql`id = md5(id::text || copy_n)::uuid, order_id = md5(order_id::text || copy_n)::uuid`,
      );
      await copyEach(
        tx,
        'payments',
        sql`payments r WHERE r.order_id IN (${orders})`,
        sql`id = md5(id::text || copy_n)::uuid, order_id = md5(order_id::text || copy_n)::uuid, checkout_id = NULL,
            processor_payment_id = processor_payment_id || '-' || copy_n`,
      );
      await copyEach(tx, 'simulated_charges', sql`simulated_charges r`, sql`id = id || '-' || copy_n`);
      await copyEach(
        tx,
        'simulated_idempotency_keys',
        sql`simulated_idempotency_keys r`,
        sql`key = key || '-' || copy_n`,
      );
    }
    const rows = await sql<{ subscription_id: string }>`SELECT subscription_id FROM subscription_copies`.execute(tx);
    return rows.rows.map((row) => row.subscription_id);
  });
}

/**
 * Inserts into `table`, for every copy of `subscription_copies`, the rows `source` (a FROM clause naming
 * them `r`) selects, changed by `changes` (assignments that may use `copy_n`, `copy_customer_id` and
 * `copy_subscription_id`).
 */
async function copyEach(tx: Transaction<DB>, table: string, source: RawBuilder<unknown>, changes: RawBuilder<unknown>) {
  await sql`CREATE TEMP TABLE copied_rows AS SELECT r.*, c.n AS copy_n, c.customer_id AS copy_customer_id,
      c.subscription_id AS copy_subscription_id FROM subscription_copies c, ${source}`.execute(tx);
  await sql`UPDATE copied_rows SET ${changes}`.execute(tx);
  await sql`ALTER TABLE copied_rows DROP COLUMN copy_n, DROP COLUMN copy_customer_id, DROP COLUMN copy_subscription_id`.execute(
    tx,
  );
  await sql`INSERT INTO ${sql.table(table)} SELECT * FROM copied_rows`.execute(tx);
  await sql`DROP TABLE copied_rows`.execute(tx);
}
