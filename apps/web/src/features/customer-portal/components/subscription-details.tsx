import type { CustomerSubscription } from '@tessera/sdk';
import { SubscriptionStatusBadge } from '../../../components/subscriptions/subscription-status-badge';
import { Alert } from '../../../components/ui/alert';
import { Card, CardTitle } from '../../../components/ui/card';
import { DetailRow } from '../../../components/ui/detail-row';
import { Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
import { TextLink } from '../../../components/ui/text-link';
import { formatDate, formatMoney } from '../../../lib/format';
import { cancellationReasonLabel } from '../../../lib/subscription-status';
import { describeRenewal } from '../logic/subscription-status';
import { usePortalSession } from '../session/portal-session';
import { portalPath } from './portal-shell';
import { ProductGallery } from '../../../components/files/product-gallery';
import { describePriceWithNext, nextPeriodAmount } from '../../../components/subscriptions/subscription-price';
import { chargeWords } from '../../../components/subscriptions/change-preview';
import { usePreviewSubscription } from '../api/preview-subscription';
import { usePaymentMethods } from '../api/get-payment-methods';

/**
 * A trial with no card to bill (a card-less trial): it ends at the trial end unless the customer adds
 * one (docs/trials.md). Shown while the saved cards say there is no default.
 */
function TrialCardPrompt({ subscription }: { subscription: CustomerSubscription }) {
  const { slug } = usePortalSession();
  const trialing = subscription.status === 'trialing' && !subscription.cancel_at_period_end;
  const { data } = usePaymentMethods({ page: 1, limit: 100 });
  if (!trialing || !data || data.items.some((method) => method.default)) return null;
  return (
    <Alert tone="info" title={`Add a card to keep ${subscription.product.name} after your trial.`}>
      Your free trial ends on {formatDate(subscription.trial_end)}. Add a card on the{' '}
      <TextLink to={portalPath(slug, '/payment-methods')}>Payment methods</TextLink> page and the subscription
      continues; without one it ends then, and nothing is charged.
    </Alert>
  );
}

export function SubscriptionDetails({ subscription }: { subscription: CustomerSubscription }) {
  const { slug } = usePortalSession();
  // The next renewal as the API would bill it now (discount, tax and pending proration included).
  const renews = subscription.status === 'active' && !subscription.ended_at && !subscription.cancel_at_period_end;
  const { data: preview } = usePreviewSubscription(subscription.id, renews ? {} : null);
  const renewal = preview?.next_renewal ?? null;
  const isFirstPeriod = subscription.current_period_start === subscription.started_at;
  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-700">{describeRenewal(subscription)}</p>
      <TrialCardPrompt subscription={subscription} />
      {subscription.status === 'past_due' && (
        <Alert tone="error" title="Your last payment for this subscription failed.">
          Add a working card as your default on the{' '}
          <TextLink to={portalPath(slug, '/payment-methods')}>Payment methods</TextLink> page: it is charged at once.
        </Alert>
      )}
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardTitle>Plan</CardTitle>
          <dl className="divide-y divide-slate-100">
            <DetailRow label="Plan">{subscription.product.name}</DetailRow>
            <DetailRow label="Price">
              {describePriceWithNext(subscription, renewal && nextPeriodAmount(renewal), isFirstPeriod)}
            </DetailRow>
            {renewal && (
              <DetailRow label="Next charge">
                {chargeWords(renewal, 'customer')} on {formatDate(renewal.renews_at)}
              </DetailRow>
            )}
            <DetailRow label="Status">
              <SubscriptionStatusBadge subscription={subscription} audience="customer" />
            </DetailRow>
            {subscription.trial_end && (
              <DetailRow label="Free trial">
                {formatDate(subscription.trial_start)} – {formatDate(subscription.trial_end)}
              </DetailRow>
            )}
            <DetailRow label="Started">{formatDate(subscription.started_at)}</DetailRow>
            <DetailRow label="Current period">
              {formatDate(subscription.current_period_start)} – {formatDate(subscription.current_period_end)}
            </DetailRow>
            {subscription.ended_at && <DetailRow label="Ended">{formatDate(subscription.ended_at)}</DetailRow>}
          </dl>
        </Card>
        {subscription.customer_cancellation_reason || subscription.customer_cancellation_comment ? (
          <Card>
            <CardTitle>Your cancellation</CardTitle>
            <dl className="divide-y divide-slate-100">
              <DetailRow label="Canceled on">{formatDate(subscription.canceled_at)}</DetailRow>
              {subscription.customer_cancellation_reason && (
                <DetailRow label="Reason">
                  {cancellationReasonLabel(subscription.customer_cancellation_reason, 'customer')}
                </DetailRow>
              )}
              {subscription.customer_cancellation_comment && (
                <DetailRow label="Comment">{subscription.customer_cancellation_comment}</DetailRow>
              )}
            </dl>
          </Card>
        ) : (
          (subscription.product.description || subscription.product.medias.length > 0) && (
            <Card>
              <CardTitle>About this plan</CardTitle>
              <ProductGallery
                medias={subscription.product.medias}
                productName={subscription.product.name}
                className="mb-3 max-w-sm"
              />
              {subscription.product.description && (
                <p className="text-sm whitespace-pre-line text-slate-700">{subscription.product.description}</p>
              )}
            </Card>
          )
        )}
      </div>
      {subscription.meters.length > 0 && (
        <section aria-labelledby="subscription-usage">
          <h2 id="subscription-usage" className="mb-3 text-base font-semibold text-slate-900">
            Usage this period
          </h2>
          <Table label="Usage this period">
            <TableHead>
              <Th>Meter</Th>
              <Th className="text-right">Used</Th>
              <Th className="text-right">Credited</Th>
              <Th className="text-right">Amount so far</Th>
            </TableHead>
            <tbody>
              {subscription.meters.map((meter) => (
                <Tr key={meter.id}>
                  <Td>{meter.meter.name}</Td>
                  <Td className="text-right">{meter.consumed_units.toLocaleString()}</Td>
                  <Td className="text-right">{meter.credited_units.toLocaleString()}</Td>
                  <Td className="text-right">{formatMoney(meter.amount, subscription.currency)}</Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        </section>
      )}
    </div>
  );
}
