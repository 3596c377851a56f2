import { purchaseFactory, type Purchase } from './benefit-grants.js';
import type { OrganizationFixture } from './organizations.js';
import type { TestServer } from '../harness.js';

export interface PaidOrderOptions {
  recurring?: boolean;
  benefitIds?: string[];
  /**
   * Tax the order carries (minor units). The built-in tax calculator taxes nothing, so the order, its
   * payment and the simulated processor's charge are written as if the checkout had charged net + tax.
   */
  tax?: number;
}

/** An order paid through a real checkout with the simulated card ($10 net unless told), ready to refund. */
export async function paidOrderFactory(
  server: TestServer,
  org: OrganizationFixture,
  options: PaidOrderOptions = {},
): Promise<Purchase> {
  const purchase = await purchaseFactory(server, org, options.benefitIds ?? [], { recurring: options.recurring });
  if (options.tax) await addTax(server, purchase.orderId, options.tax);
  return purchase;
}

/** Writes `tax` onto a paid order, its payment and the processor's charge (total = net + tax). */
export async function addTax(server: TestServer, orderId: string, tax: number): Promise<void> {
  const db = server.runtime.database.db;
  await db.transaction().execute(async (tx) => {
    const order = await tx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    await tx
      .updateTable('orders')
      .set({ tax_amount: tax, total_amount: order.net_amount + tax })
      .where('id', '=', orderId)
      .execute();
    const payment = await tx
      .selectFrom('payments')
      .selectAll()
      .where('order_id', '=', orderId)
      .where('status', '=', 'succeeded')
      .executeTakeFirstOrThrow();
    await tx
      .updateTable('payments')
      .set({ amount: order.net_amount + tax })
      .where('id', '=', payment.id)
      .execute();
    await tx
      .updateTable('simulated_charges')
      .set({ amount: order.net_amount + tax })
      .where('id', '=', payment.processor_payment_id!)
      .execute();
  });
}
