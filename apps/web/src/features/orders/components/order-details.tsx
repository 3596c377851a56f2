import type { Order } from '@tessera/sdk';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Card, CardTitle } from '../../../components/ui/card';
import { Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
import { formatAddressLines, formatDateTime, formatMoney, formatMoneyPerInterval } from '../../../lib/format';
import { BILLING_REASON, ORDER_STATUS } from './order-labels';
import { OrderInvoice } from './order-invoice';

function Row({ label, children, emphasis = false }: { label: string; children: ReactNode; emphasis?: boolean }) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-2">
      <dt className={emphasis ? 'text-sm font-semibold text-slate-900' : 'text-sm font-medium text-slate-600'}>
        {label}
      </dt>
      <dd className={emphasis ? 'text-sm font-semibold text-slate-900' : 'text-sm text-slate-900'}>{children}</dd>
    </div>
  );
}

const link = 'font-medium text-blue-800 underline-offset-2 hover:underline';

export interface OrderDetailsProps {
  order: Order;
  /** The organization's dashboard path: the customer, product and subscription link below it. */
  dashboardPath: string;
}

export function OrderDetails({ order, dashboardPath }: OrderDetailsProps) {
  const money = (amount: number) => formatMoney(amount, order.currency);
  const refunded = order.refunded_amount + order.refunded_tax_amount;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card>
        <CardTitle>Amounts</CardTitle>
        <dl className="divide-y divide-slate-100">
          <Row label="Subtotal">{money(order.subtotal_amount)}</Row>
          <Row label="Discount">
            {order.discount_amount > 0 ? `−${money(order.discount_amount)}` : money(0)}
            {order.discount && <span className="ml-1 text-slate-600">({order.discount.name})</span>}
          </Row>
          <Row label="Net amount">{money(order.net_amount)}</Row>
          <Row label="Tax">{money(order.tax_amount)}</Row>
          <Row label="Total" emphasis>
            {money(order.total_amount)}
          </Row>
          <Row label="Refunded">
            {refunded > 0 ? `${money(refunded)} (tax ${money(order.refunded_tax_amount)})` : money(0)}
          </Row>
        </dl>
      </Card>
      <Card>
        <CardTitle>Order</CardTitle>
        <dl className="divide-y divide-slate-100">
          <Row label="Status">
            <Badge tone={ORDER_STATUS[order.status].tone}>{ORDER_STATUS[order.status].label}</Badge>
          </Row>
          <Row label="Reason">{BILLING_REASON[order.billing_reason]}</Row>
          <Row label="Placed">{formatDateTime(order.created_at)}</Row>
          <Row label="Customer">
            <Link className={link} to={`${dashboardPath}/customers/${order.customer_id}`}>
              {order.customer.email}
            </Link>
          </Row>
          <Row label="Product">
            <Link className={link} to={`${dashboardPath}/products/${order.product_id}`}>
              {order.product.name}
            </Link>
          </Row>
          <Row label="Subscription">
            {order.subscription ? (
              <Link className={link} to={`${dashboardPath}/subscriptions/${order.subscription.id}`}>
                {formatMoneyPerInterval(
                  order.subscription.amount,
                  order.subscription.currency,
                  order.subscription.recurring_interval,
                )}
              </Link>
            ) : (
              'One-time purchase'
            )}
          </Row>
          <Row label="Order ID">
            <code className="font-mono text-xs">{order.id}</code>
          </Row>
        </dl>
      </Card>
      <section aria-labelledby="order-items" className="lg:col-span-2">
        <h2 id="order-items" className="mb-3 text-base font-semibold text-slate-900">
          Items
        </h2>
        <Table label="Items">
          <TableHead>
            <Th>Description</Th>
            <Th className="text-right">Amount</Th>
            <Th className="text-right">Tax</Th>
          </TableHead>
          <tbody>
            {order.items.map((item) => (
              <Tr key={item.id}>
                <Td>
                  {item.label}
                  {item.proration && (
                    <span className="ml-2">
                      <Badge tone="info">Proration</Badge>
                    </span>
                  )}
                </Td>
                <Td className="text-right">{money(item.amount)}</Td>
                <Td className="text-right">{money(item.tax_amount)}</Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      </section>
      <Card>
        <CardTitle>Billing details</CardTitle>
        <dl className="divide-y divide-slate-100">
          <Row label="Name">{order.billing_name ?? '—'}</Row>
          <Row label="Address">
            {order.billing_address ? (
              <address className="text-right not-italic">
                {formatAddressLines(order.billing_address).map((line) => (
                  <div key={line}>{line}</div>
                ))}
              </address>
            ) : (
              '—'
            )}
          </Row>
        </dl>
      </Card>
      <OrderInvoice order={order} />
    </div>
  );
}
