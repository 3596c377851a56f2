import type { Subscription } from '@tessera/sdk';
import type { ReactNode } from 'react';
import { SubscriptionStatusBadge } from '../../../components/subscriptions/subscription-status-badge';
import { Card, CardTitle } from '../../../components/ui/card';
import { TextLink } from '../../../components/ui/text-link';
import { formatDate, formatDateTime } from '../../../lib/format';
import { cancellationReasonLabel } from '../../../lib/subscription-status';
import { describeSubscriptionPrice } from '../../../components/subscriptions/subscription-price';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[12rem_1fr]">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="text-sm text-slate-900">{children}</dd>
    </div>
  );
}

/** When the subscription stops, or renews, in one sentence. */
function lifecycle(subscription: Subscription): string {
  if (subscription.ended_at) return `Ended on ${formatDate(subscription.ended_at)}.`;
  if (subscription.cancel_at_period_end || subscription.ends_at)
    return `Ends on ${formatDate(subscription.ends_at ?? subscription.current_period_end)}; it will not renew.`;
  if (subscription.status === 'trialing' && subscription.trial_end)
    return `Free trial until ${formatDate(subscription.trial_end)}; the first period is charged then.`;
  if (subscription.current_period_end) return `Renews on ${formatDate(subscription.current_period_end)}.`;
  return 'Renews at the end of each period.';
}

export interface SubscriptionDetailsProps {
  subscription: Subscription;
  /** The organization's dashboard path: the customer and product link below it. */
  dashboardPath: string;
}

export function SubscriptionDetails({ subscription, dashboardPath }: SubscriptionDetailsProps) {
  const discount = subscription.discount;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card>
        <CardTitle>Billing</CardTitle>
        <dl className="divide-y divide-slate-100">
          <Row label="Status">
            <SubscriptionStatusBadge subscription={subscription} audience="seller" />
            <p className="mt-1 text-slate-700">{lifecycle(subscription)}</p>
          </Row>
          <Row label="Amount">{describeSubscriptionPrice(subscription)}</Row>
          <Row label="Discount">{discount ? `${discount.name}${discount.code ? ` (${discount.code})` : ''}` : '—'}</Row>
          <Row label="Current period">
            {formatDate(subscription.current_period_start)} – {formatDate(subscription.current_period_end)}
          </Row>
          {subscription.trial_end && (
            <Row label="Free trial">
              {formatDate(subscription.trial_start)} – {formatDate(subscription.trial_end)}
            </Row>
          )}
          <Row label="Started">{formatDateTime(subscription.started_at)}</Row>
          {subscription.canceled_at && <Row label="Canceled">{formatDateTime(subscription.canceled_at)}</Row>}
          {subscription.ended_at && <Row label="Ended">{formatDateTime(subscription.ended_at)}</Row>}
          {subscription.customer_cancellation_reason && (
            <Row label="Cancellation reason">
              {cancellationReasonLabel(subscription.customer_cancellation_reason, 'seller')}
            </Row>
          )}
          {subscription.customer_cancellation_comment && (
            <Row label="Comment">{subscription.customer_cancellation_comment}</Row>
          )}
        </dl>
      </Card>
      <Card>
        <CardTitle>Customer and product</CardTitle>
        <dl className="divide-y divide-slate-100">
          <Row label="Customer">
            <TextLink to={`${dashboardPath}/customers/${subscription.customer_id}`}>
              {subscription.customer.email}
            </TextLink>
            {subscription.customer.name && <span className="ml-1 text-slate-600">({subscription.customer.name})</span>}
          </Row>
          <Row label="Product">
            <TextLink to={`${dashboardPath}/products/${subscription.product_id}`}>{subscription.product.name}</TextLink>
          </Row>
          <Row label="Subscription ID">
            <code className="font-mono text-xs">{subscription.id}</code>
          </Row>
        </dl>
      </Card>
    </div>
  );
}
