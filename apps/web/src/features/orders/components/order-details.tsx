import type { Order, ProductPrice } from '@tessera/sdk';
import { BillingDetailsCard } from '../../../components/orders/billing-details-card';
import { OrderItems } from '../../../components/orders/order-items';
import { OrderStatusBadge } from '../../../components/orders/order-status-badge';
import { OrderSubscriptionRow } from '../../../components/orders/order-subscription-row';
import { Card, CardTitle } from '../../../components/ui/card';
import { DetailRow } from '../../../components/ui/detail-row';
import { TextLink } from '../../../components/ui/text-link';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { BILLING_REASON } from '../../../lib/order-labels';
import { OrderInvoice } from './order-invoice';

export interface OrderDetailsProps {
  order: Order;
  /** The organization's dashboard path: the customer, product and subscription link below it. */
  dashboardPath: string;
  /** The prices of the order's product (composed by the page): metered lines say their meter and units. */
  prices?: readonly ProductPrice[];
}

export function OrderDetails({ order, dashboardPath, prices }: OrderDetailsProps) {
  const money = (amount: number) => formatMoney(amount, order.currency);
  const refunded = order.refunded_amount + order.refunded_tax_amount;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card>
        <CardTitle>Amounts</CardTitle>
        <dl className="divide-y divide-slate-100">
          <DetailRow label="Subtotal">{money(order.subtotal_amount)}</DetailRow>
          <DetailRow label="Discount">
            {order.discount_amount > 0 ? `−${money(order.discount_amount)}` : money(0)}
            {order.discount && <span className="ml-1 text-slate-600">({order.discount.name})</span>}
          </DetailRow>
          <DetailRow label="Net amount">{money(order.net_amount)}</DetailRow>
          <DetailRow label="Tax">{money(order.tax_amount)}</DetailRow>
          <DetailRow label="Total" emphasis>
            {money(order.total_amount)}
          </DetailRow>
          <DetailRow label="Refunded">
            {refunded > 0 ? `${money(refunded)} (tax ${money(order.refunded_tax_amount)})` : money(0)}
          </DetailRow>
        </dl>
      </Card>
      <Card>
        <CardTitle>Order</CardTitle>
        <dl className="divide-y divide-slate-100">
          <DetailRow label="Status">
            <OrderStatusBadge status={order.status} />
          </DetailRow>
          <DetailRow label="Reason">{BILLING_REASON.seller[order.billing_reason]}</DetailRow>
          <DetailRow label="Placed">{formatDateTime(order.created_at)}</DetailRow>
          <DetailRow label="Customer">
            <TextLink to={`${dashboardPath}/customers/${order.customer_id}`}>{order.customer.email}</TextLink>
          </DetailRow>
          <DetailRow label="Product">
            <TextLink to={`${dashboardPath}/products/${order.product_id}`}>{order.product.name}</TextLink>
          </DetailRow>
          <OrderSubscriptionRow
            subscription={order.subscription}
            subscriptionPath={(id) => `${dashboardPath}/subscriptions/${id}`}
          />
          <DetailRow label="Order ID">
            <code className="font-mono text-xs">{order.id}</code>
          </DetailRow>
        </dl>
      </Card>
      <OrderItems
        items={order.items}
        currency={order.currency}
        prorationLabel="Proration"
        prices={prices}
        meterPath={(meterId) => `${dashboardPath}/meters/${meterId}`}
        className="lg:col-span-2"
      />
      <BillingDetailsCard title="Billing details" name={order.billing_name} address={order.billing_address} />
      <OrderInvoice order={order} />
    </div>
  );
}
