import { beforeCommit } from '../../platform/db/commit-hooks.js';
import type { Executor } from '../../platform/db/database.js';
import { reserveInvoiceNumbers, setInvoiceNumbers } from './orders.repository.js';
import { formatInvoiceNumber } from './orders.serializer.js';

/**
 * Invoice numbers: consecutive per organization, without gaps (a rolled-back order gives its number
 * back). Taking one locks the organization's sequence row until the transaction ends, so every other
 * order of the organization waits for that commit. An order is therefore written with a provisional
 * number, `PROVISIONAL-<order id>`, and its transaction numbers all its orders at once as it commits
 * (platform/db/commit-hooks.ts), after its other commit hooks: the lock is held for the commit only, not
 * for the rest of a checkout confirmation or of a group of renewals.
 *
 * The number is on the order's row only (the invoice, search, dispute emails read it there, after the
 * commit); the API's order object does not carry it. A transaction that would commit an order still
 * holding its provisional number fails (migration 0051). Outside a transaction (each statement commits
 * by itself) the number is taken at once.
 */
const PROVISIONAL = 'PROVISIONAL-';
/**
 * After every other commit hook (none reads an order's number: a webhook payload and an email are made
 * when recorded, and the order object does not carry it), so the sequence row is locked for the
 * numbering statement and the commit only, not for the storing of the group's events and emails too.
 */
const PHASE = 100;

interface PendingOrder {
  id: string;
  organizationId: string;
}

const pendingIn = new WeakMap<Executor, PendingOrder[]>();

/** The number a new order is written with: provisional in a transaction, final otherwise. */
export async function invoiceNumberForNewOrder(db: Executor, order: PendingOrder): Promise<string> {
  if (!db.isTransaction) {
    const { last, prefix } = await reserveInvoiceNumbers(db, order.organizationId, 1);
    return formatInvoiceNumber(prefix, last);
  }
  let pending = pendingIn.get(db);
  if (!pending) {
    // Set before waiting for the hook's registration: an order created meanwhile (calls of one
    // transaction running at once) joins this list, numbered by this hook.
    const orders: PendingOrder[] = [];
    pendingIn.set(db, orders);
    pending = orders;
    await beforeCommit(db, 'orders.invoice-numbers', PHASE, () => assignInvoiceNumbers(db, orders));
  }
  pending.push(order);
  return PROVISIONAL + order.id;
}

async function assignInvoiceNumbers(db: Executor, orders: readonly PendingOrder[]): Promise<void> {
  pendingIn.delete(db);
  const byOrganization = new Map<string, PendingOrder[]>();
  for (const order of orders) {
    byOrganization.set(order.organizationId, [...(byOrganization.get(order.organizationId) ?? []), order]);
  }
  const numbers: { id: string; invoiceNumber: string }[] = [];
  // Every transaction locks the sequence rows in the same order: two that number orders of the same
  // two organizations cannot deadlock.
  for (const organizationId of [...byOrganization.keys()].sort()) {
    const group = byOrganization.get(organizationId)!;
    const { last, prefix } = await reserveInvoiceNumbers(db, organizationId, group.length);
    group.forEach((order, index) => {
      numbers.push({ id: order.id, invoiceNumber: formatInvoiceNumber(prefix, last - group.length + 1 + index) });
    });
  }
  await setInvoiceNumbers(db, numbers);
}
