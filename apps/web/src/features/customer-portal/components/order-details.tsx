import type { CustomerOrder } from '@tessera/sdk';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Card, CardTitle } from '../../../components/ui/card';
import { Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
import { formatAddressLines, formatDateTime, formatMoney, formatMoneyPerInterval } from '../../../lib/format';
import { BILLING_REASON, ORDER_STATUS } from '../logic/order-labels';
import { DetailRow, linkClass } from './detail-row';
import { portalPath } from './portal-shell';

export function OrderDetails({ slug, order }: { slug: string; order: CustomerOrder }) {
  const money = (amount: number) => formatMoney(amount, order.currency);
  const refunded = order.refunded_amount + order.refunded_tax_amount;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card>
        <CardTitle>Amounts</CardTitle>
        <dl className="divide-y divide-slate-100">
          <DetailRow label="Subtotal">{money(order.subtotal_amount)}</DetailRow>
          {order.discount_amount > 0 && <DetailRow label="Discount">−{money(order.discount_amount)}</DetailRow>}
          <DetailRow label="Tax">{money(order.tax_amount)}</DetailRow>
          <DetailRow label="Total" emphasis>
            {money(order.total_amount)}
          </DetailRow>
          {refunded > 0 && <DetailRow label="Refunded">{money(refunded)}</DetailRow>}
        </dl>
      </Card>
      <Card>
        <CardTitle>Order</CardTitle>
        <dl className="divide-y divide-slate-100">
          <DetailRow label="Status">
            <Badge tone={ORDER_STATUS[order.status].tone}>{ORDER_STATUS[order.status].label}</Badge>
          </DetailRow>
          <DetailRow label="Reason">{BILLING_REASON[order.billing_reason]}</DetailRow>
          <DetailRow label="Date">{formatDateTime(order.created_at)}</DetailRow>
          <DetailRow label="Product">{order.product.name}</DetailRow>
          <DetailRow label="Subscription">
            {order.subscription ? (
              <Link className={linkClass} to={portalPath(slug, `/subscriptions/${order.subscription.id}`)}>
                {formatMoneyPerInterval(
                  order.subscription.amount,
                  order.subscription.currency,
                  order.subscription.recurring_interval,
                )}
              </Link>
            ) : (
              'One-time purchase'
            )}
          </DetailRow>
          <DetailRow label="Order number">
            <code className="font-mono text-xs break-all">{order.id}</code>
          </DetailRow>
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
                      <Badge tone="info">Prorated</Badge>
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
        <CardTitle>Billed to</CardTitle>
        <dl className="divide-y divide-slate-100">
          <DetailRow label="Name">{order.billing_name ?? '—'}</DetailRow>
          <DetailRow label="Address">
            {order.billing_address ? (
              <address className="not-italic">
                {formatAddressLines(order.billing_address).map((line) => (
                  <div key={line}>{line}</div>
                ))}
              </address>
            ) : (
              '—'
            )}
          </DetailRow>
        </dl>
      </Card>
      {order.product.description && (
        <Card>
          <CardTitle>{order.product.name}</CardTitle>
          <p className="text-sm whitespace-pre-line text-slate-700">{order.product.description}</p>
        </Card>
      )}
    </div>
  );
}
