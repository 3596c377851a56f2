import type { CustomerOrder } from '@tessera/sdk';
import { BillingDetailsCard } from '../../../components/orders/billing-details-card';
import { OrderItems } from '../../../components/orders/order-items';
import { OrderStatusBadge } from '../../../components/orders/order-status-badge';
import { OrderSubscriptionRow } from '../../../components/orders/order-subscription-row';
import { Card, CardTitle } from '../../../components/ui/card';
import { DetailRow } from '../../../components/ui/detail-row';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { BILLING_REASON } from '../../../lib/order-labels';
import { OrderBillingDialog } from './order-billing-dialog';
import { OrderInvoice } from './order-invoice';
import { portalPath } from './portal-shell';
import { ProductGallery } from '../../../components/files/product-gallery';

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
            <OrderStatusBadge status={order.status} />
          </DetailRow>
          <DetailRow label="Reason">{BILLING_REASON.customer[order.billing_reason]}</DetailRow>
          <DetailRow label="Date">{formatDateTime(order.created_at)}</DetailRow>
          <DetailRow label="Product">{order.product.name}</DetailRow>
          <OrderSubscriptionRow
            subscription={order.subscription}
            subscriptionPath={(id) => portalPath(slug, `/subscriptions/${id}`)}
          />
          <DetailRow label="Order number">
            <code className="font-mono text-xs break-all">{order.id}</code>
          </DetailRow>
        </dl>
      </Card>
      <OrderItems items={order.items} currency={order.currency} prorationLabel="Prorated" className="lg:col-span-2" />
      <BillingDetailsCard
        title="Billed to"
        name={order.billing_name}
        address={order.billing_address}
        action={order.is_invoice_generated ? undefined : <OrderBillingDialog key={order.modified_at} order={order} />}
      />
      <OrderInvoice order={order} />
      {(order.product.description || order.product.medias.length > 0) && (
        <Card>
          <CardTitle>{order.product.name}</CardTitle>
          <ProductGallery medias={order.product.medias} productName={order.product.name} className="mb-3 max-w-sm" />
          {order.product.description && (
            <p className="text-sm whitespace-pre-line text-slate-700">{order.product.description}</p>
          )}
        </Card>
      )}
    </div>
  );
}
