import { sql, type Insertable, type Selectable, type SqlBool } from 'kysely';
import type { OrderItemsTable, OrdersTable } from '../../db/tables/orders.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { defersWrites, keepInsert } from '../../platform/db/deferred-writes.js';
import { CUSTOMERS_BY_ID } from '../customers/customers.memo.js';
import { idsKey, memoized, memoizedByIds, memoizedPerId, takeHandedOut } from '../../platform/db/read-memo.js';
import { metadataMatches } from '../../platform/db/metadata-filter.js';
import { paginate } from '../../platform/db/paginate.js';
import { anyUuid } from '../../platform/db/prepared.js';
import type { CustomerRow } from '../customers/customers.repository.js';
import type { ProductRow } from '../products/products.repository.js';
import type { ExportCursor } from '../../platform/http/csv.js';
import type { OrderExportParams, OrderListParams } from './orders.schemas.js';

export type OrderRow = Selectable<OrdersTable>;
export type OrderItemRow = Selectable<OrderItemsTable>;

function visible(db: Executor, subject: Subject) {
  return db.selectFrom('orders').selectAll('orders').where(organizationVisibleTo(subject, 'orders.organization_id'));
}

export async function findVisibleOrder(db: Executor, subject: Subject, id: string): Promise<OrderRow | undefined> {
  return visible(db, subject).where('orders.id', '=', id).executeTakeFirst();
}

/** Locks the order for the rest of the transaction (updates, invoice requests). */
export async function lockVisibleOrder(db: Executor, subject: Subject, id: string): Promise<OrderRow | undefined> {
  return visible(db, subject).where('orders.id', '=', id).forUpdate().executeTakeFirst();
}

/** An order by id whoever asks: for flows without a seller subject (checkout confirm, renewals). */
export async function lockOrderById(db: Executor, id: string): Promise<OrderRow | undefined> {
  return takeHandedOut<OrderRow>(db, 'order', id) ?? (await lockOrdersByIds(db, [id]))[0];
}

/** The orders of `ids`, locked in id order (a billing group's, handed out to `lockOrderById`). */
export async function lockOrdersByIds(db: Executor, ids: readonly string[]): Promise<OrderRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('orders')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .orderBy('id')
    .forUpdate()
    .execute();
}

export async function listVisibleOrders(db: Executor, subject: Subject, params: OrderListParams) {
  let query = visible(db, subject)
    .innerJoin('customers', 'customers.id', 'orders.customer_id')
    .innerJoin('products', 'products.id', 'orders.product_id')
    .leftJoin('discounts', 'discounts.id', 'orders.discount_id');
  if (params.organization_id?.length) query = query.where('orders.organization_id', 'in', params.organization_id);
  if (params.product_id?.length) query = query.where('orders.product_id', 'in', params.product_id);
  if (params.customer_id?.length) query = query.where('orders.customer_id', 'in', params.customer_id);
  if (params.discount_id?.length) query = query.where('orders.discount_id', 'in', params.discount_id);
  if (params.checkout_id?.length) query = query.where('orders.checkout_id', 'in', params.checkout_id);
  const billingTypes = new Set(params.product_billing_type ?? []);
  if (billingTypes.size === 1) {
    query = query.where('products.recurring_interval', billingTypes.has('recurring') ? 'is not' : 'is', null);
  }
  if (params.metadata) query = query.where(metadataMatches('orders.metadata', params.metadata));
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
      case 'customer':
        query = query.orderBy(sql`lower(customers.email)`, direction);
        break;
      case 'product':
        query = query.orderBy('products.name', direction);
        break;
      case 'discount':
        query = query.orderBy(sql`discounts.name`, (ob) =>
          sort.descending ? ob.desc().nullsLast() : ob.asc().nullsLast(),
        );
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

/**
 * A batch of the orders export (`GET /v1/orders/export`): the visible orders under the filters,
 * newest first, after `after` (keyset on the instant to the microsecond and the id), `limit` of them.
 */
export async function exportVisibleOrders(
  db: Executor,
  subject: Subject,
  params: OrderExportParams,
  after: ExportCursor | undefined,
  limit: number,
) {
  let query = db
    .selectFrom('orders')
    .innerJoin('customers', 'customers.id', 'orders.customer_id')
    .innerJoin('products', 'products.id', 'orders.product_id')
    .where(organizationVisibleTo(subject, 'orders.organization_id'))
    .select([
      'orders.id',
      sql<string>`orders.created_at::text`.as('cursor_at'),
      'orders.created_at',
      'customers.email as customer_email',
      'products.name as product_name',
      'orders.net_amount',
      'orders.currency',
      'orders.status',
      'orders.invoice_number',
    ]);
  if (params.organization_id?.length) query = query.where('orders.organization_id', 'in', params.organization_id);
  if (params.product_id?.length) query = query.where('orders.product_id', 'in', params.product_id);
  if (after) {
    query = query.where(
      sql<SqlBool>`(orders.created_at, orders.id) < (${after.cursor_at}::timestamptz, ${after.id}::uuid)`,
    );
  }
  return query.orderBy('orders.created_at', 'desc').orderBy('orders.id', 'desc').limit(limit).execute();
}

/**
 * Reserves the organization's next `count` invoice numbers: returns the last (the first is
 * `last - count + 1`) and the organization's invoice prefix. One upsert that holds the sequence row's
 * lock until the transaction ends, so concurrent transactions get distinct consecutive numbers (and a
 * rolled-back one gives its numbers back). Taken as the transaction commits (orders.numbering.ts), so
 * the lock is held for the commit.
 */
export async function reserveInvoiceNumbers(
  db: Executor,
  organizationId: string,
  count: number,
): Promise<{ last: number; prefix: string }> {
  const row = await db
    .insertInto('organization_invoice_sequences')
    .values({ organization_id: organizationId, last_number: count })
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet({
        last_number: sql<number>`organization_invoice_sequences.last_number + ${count}`,
      }),
    )
    .returning([
      'last_number',
      sql<string>`(SELECT customer_invoice_prefix FROM organizations WHERE id = ${organizationId})`.as('prefix'),
    ])
    .executeTakeFirstOrThrow();
  return { last: Number(row.last_number), prefix: row.prefix };
}

/** Gives each order its invoice number, in one statement. */
export async function setInvoiceNumbers(
  db: Executor,
  numbers: readonly { id: string; invoiceNumber: string }[],
): Promise<void> {
  if (numbers.length === 0) return;
  await sql`
    UPDATE orders SET invoice_number = v.invoice_number
    FROM unnest(${numbers.map((n) => n.id)}::uuid[], ${numbers.map((n) => n.invoiceNumber)}::text[])
      AS v(id, invoice_number)
    WHERE orders.id = v.id`.execute(db);
}

/**
 * Inserts the order; returns its row as written. A transaction that defers writes sends it with the
 * other orders it keeps (platform/db/deferred-writes.ts).
 */
export async function insertOrder(db: Executor, row: Insertable<OrdersTable>): Promise<OrderRow> {
  if (!defersWrites(db)) return db.insertInto('orders').values(row).returningAll().executeTakeFirstOrThrow();
  const written = orderAsWritten(row);
  await keepInsert(db, 'orders', written);
  return written;
}

const ORDER_JSON_COLUMNS = ['tax_details', 'billing_address', 'metadata', 'custom_field_data'] as const;

/**
 * The row PostgreSQL answers for `row` inserted into orders (`RETURNING *`): the columns' defaults where
 * `row` leaves them out, JSON columns parsed. Timestamps must be given as dates.
 */
export function orderAsWritten(row: Insertable<OrdersTable>): OrderRow {
  const written: Record<string, unknown> = {
    refunded_amount: 0,
    applied_balance_amount: 0,
    refunded_tax_amount: 0,
    invoice_path: null,
    receipt_path: null,
    ...row,
  };
  for (const column of ORDER_JSON_COLUMNS) {
    const value = row[column];
    written[column] = typeof value === 'string' ? JSON.parse(value) : null;
  }
  return written as OrderRow;
}

/** Inserts the items in one statement (or keeps them: `insertOrder`); returns the rows as written. */
export async function insertOrderItems(db: Executor, rows: Insertable<OrderItemsTable>[]): Promise<OrderItemRow[]> {
  if (rows.length === 0) return [];
  if (!defersWrites(db)) return db.insertInto('order_items').values(rows).returningAll().execute();
  const written = rows.map((row) => ({ ...row }) as OrderItemRow);
  for (const row of written) await keepInsert(db, 'order_items', row);
  return written;
}

export type OrderChanges = Partial<
  Pick<
    Insertable<OrdersTable>,
    | 'billing_name'
    | 'billing_address'
    | 'status'
    | 'invoice_path'
    | 'receipt_path'
    | 'refunded_amount'
    | 'refunded_tax_amount'
  >
> & { modified_at: Date };

export async function updateOrderRow(db: Executor, id: string, changes: OrderChanges): Promise<void> {
  await db.updateTable('orders').set(changes).where('id', '=', id).execute();
}

/** Records the stored receipt; the order's modified_at is left alone (a receipt changes nothing it says). */
export async function setOrderReceiptPath(db: Executor, id: string, path: string): Promise<void> {
  await db.updateTable('orders').set({ receipt_path: path }).where('id', '=', id).execute();
}

/** Updates the order and returns its row as it is now. */
export async function updateOrderRowReturning(db: Executor, id: string, changes: OrderChanges): Promise<OrderRow> {
  return db.updateTable('orders').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Sets the status of the orders of `ids` (in one statement) and returns them as written, in no order. */
export async function updateOrdersStatus(
  db: Executor,
  ids: readonly string[],
  status: OrderRow['status'],
  at: Date,
): Promise<OrderRow[]> {
  if (ids.length === 0) return [];
  return db
    .updateTable('orders')
    .set({ status, modified_at: at })
    .where('id', '=', anyUuid(ids))
    .returningAll()
    .execute();
}

export async function findOrderById(db: Executor, id: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The items of each order, in position order (memoized id by id in a billing group: items never change). */
export const findItemsOfOrders = memoizedPerId(
  'findItemsOfOrders',
  async (db, orderIds): Promise<Map<string, OrderItemRow[]>> => {
    const byOrder = new Map<string, OrderItemRow[]>(orderIds.map((id) => [id, []]));
    if (orderIds.length === 0) return byOrder;
    const rows = await db
      .selectFrom('order_items')
      .selectAll()
      .where('order_id', 'in', [...orderIds])
      .orderBy('order_id')
      .orderBy('position')
      .execute();
    for (const row of rows) byOrder.get(row.order_id)?.push(row);
    return byOrder;
  },
);

/**
 * Customers by id, deleted ones included (an order keeps showing its customer). Memoized id by id in a
 * billing group; every write to a customer row forgets it there (`forgetCustomers`).
 */
export const findCustomersByIds = memoizedPerId(CUSTOMERS_BY_ID, async (db, ids): Promise<Map<string, CustomerRow>> => {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('customers')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
});

export const findProductRowsByIds = memoizedByIds(
  'findProductRowsByIds',
  async (db, ids): Promise<Map<string, ProductRow>> => {
    if (ids.length === 0) return new Map();
    const rows = await db
      .selectFrom('products')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return new Map(rows.map((row) => [row.id, row]));
  },
);

/** The prices among `ids` that belong to the product (order items may only point at its prices). */
export async function findPriceIdsOfProduct(
  db: Executor,
  productId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  return memoized(db, idsKey(`findPriceIdsOfProduct:${productId}`, ids), async () => {
    const rows = await db
      .selectFrom('product_prices')
      .select('id')
      .where('product_id', '=', productId)
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return new Set(rows.map((row) => row.id));
  });
}

/** Records (or renews) an invoice generation request; the renderer picks up rows not yet generated. */
export async function upsertInvoiceRequest(db: Executor, orderId: string, at: Date): Promise<void> {
  await db
    .insertInto('order_invoice_requests')
    .values({ order_id: orderId, created_at: at, modified_at: null, generated_at: null })
    .onConflict((oc) => oc.column('order_id').doUpdateSet({ modified_at: at }))
    .execute();
}

/** Marks the order's invoice request done (the renderer stored the PDF). */
export async function markInvoiceRequestGenerated(db: Executor, orderId: string, at: Date): Promise<void> {
  await db
    .updateTable('order_invoice_requests')
    .set({ generated_at: at, modified_at: at })
    .where('order_id', '=', orderId)
    .execute();
}

/** The seller as an invoice names it. */
export async function findInvoiceSeller(
  db: Executor,
  organizationId: string,
): Promise<{ name: string; email: string | null; website: string | null } | undefined> {
  return db
    .selectFrom('organizations')
    .select(['name', 'email', 'website'])
    .where('id', '=', organizationId)
    .executeTakeFirst();
}
