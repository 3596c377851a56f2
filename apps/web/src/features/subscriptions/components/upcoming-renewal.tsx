import type { Subscription } from '@tessera/sdk';
import { chargeWords } from '../../../components/subscriptions/change-preview';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Card, CardTitle } from '../../../components/ui/card';
import { Loading } from '../../../components/ui/spinner';
import { formatDate, formatMoney } from '../../../lib/format';
import { usePreviewSubscription } from '../api/preview-subscription';

/**
 * The next renewal as billing would price it now (the preview's empty body: discount, tax, pending
 * proration and credit balance included; metered usage is not). Nothing renews once it is set to end.
 */
export function UpcomingRenewal({ subscription }: { subscription: Subscription }) {
  const renews =
    (subscription.status === 'active' || subscription.status === 'trialing' || subscription.status === 'past_due') &&
    !subscription.ended_at &&
    !subscription.cancel_at_period_end;
  const preview = usePreviewSubscription(subscription.id, renews ? {} : null);
  const renewal = preview.data?.next_renewal ?? null;
  return (
    <Card>
      <CardTitle>Upcoming renewal</CardTitle>
      {!renews ? (
        <p className="text-sm text-slate-600">
          {subscription.ended_at || subscription.ends_at
            ? `No renewal: the subscription ${subscription.ended_at ? 'ended' : 'ends'} on ${formatDate(subscription.ended_at ?? subscription.ends_at)}.`
            : 'No renewal is due.'}
        </p>
      ) : preview.isPending ? (
        <Loading label="Working out the next renewal…" />
      ) : preview.isError ? (
        <ApiErrorAlert error={preview.error} />
      ) : !renewal ? (
        <p className="text-sm text-slate-600">No renewal is due.</p>
      ) : (
        <div className="space-y-2 text-sm text-slate-700">
          <p>
            <span className="font-semibold text-slate-900">{chargeWords(renewal, 'seller')}</span> on{' '}
            {formatDate(renewal.renews_at)}
          </p>
          <dl className="space-y-0.5">
            {renewal.items.map((item, index) => (
              <div key={index} className="flex justify-between gap-4">
                <dt className="min-w-0 break-words">{item.label}</dt>
                <dd className="tabular-nums">{formatMoney(item.amount, renewal.currency)}</dd>
              </div>
            ))}
            {renewal.discount_amount > 0 && (
              <div className="flex justify-between gap-4">
                <dt>Discount</dt>
                <dd className="tabular-nums">−{formatMoney(renewal.discount_amount, renewal.currency)}</dd>
              </div>
            )}
            {renewal.tax_amount > 0 && (
              <div className="flex justify-between gap-4">
                <dt>Tax</dt>
                <dd className="tabular-nums">{formatMoney(renewal.tax_amount, renewal.currency)}</dd>
              </div>
            )}
          </dl>
          <p className="text-xs text-slate-600">Usage of metered prices is added when the period closes.</p>
        </div>
      )}
    </Card>
  );
}
