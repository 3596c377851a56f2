import type { SubscriptionPreview, SubscriptionPreviewOrder } from '@tessera/sdk';
import { formatDate, formatMoney } from '../../lib/format';
import { Loading } from '../ui/spinner';

type Audience = 'seller' | 'customer';

/** "$9.00", or "$9.00 ($4.00 from the credit balance, $5.00 charged to the card)" when the balance pays part. */
export function chargeWords(order: SubscriptionPreviewOrder, audience: Audience): string {
  const total = formatMoney(order.total_amount, order.currency);
  if (order.applied_balance_amount <= 0) return total;
  const balance = audience === 'customer' ? 'your credit balance' : 'the credit balance';
  const card = audience === 'customer' ? 'your card' : 'the card';
  return `${total} (${formatMoney(order.applied_balance_amount, order.currency)} from ${balance}, ${formatMoney(
    order.due_amount,
    order.currency,
  )} charged to ${card})`;
}

function OrderLines({ order }: { order: SubscriptionPreviewOrder }) {
  const money = (amount: number) => formatMoney(amount, order.currency);
  return (
    <dl className="mt-1 space-y-0.5 text-sm text-slate-700">
      {order.items.map((item, index) => (
        <div key={index} className="flex justify-between gap-4">
          <dt className="min-w-0 break-words">{item.label}</dt>
          <dd className="tabular-nums">{money(item.amount)}</dd>
        </div>
      ))}
      {order.discount_amount > 0 && (
        <div className="flex justify-between gap-4">
          <dt>Discount</dt>
          <dd className="tabular-nums">−{money(order.discount_amount)}</dd>
        </div>
      )}
      {order.tax_amount > 0 && (
        <div className="flex justify-between gap-4">
          <dt>Tax</dt>
          <dd className="tabular-nums">{money(order.tax_amount)}</dd>
        </div>
      )}
    </dl>
  );
}

export interface ChangePreviewProps {
  preview: SubscriptionPreview | undefined;
  isFetching: boolean;
  audience: Audience;
}

/**
 * What a plan change will charge now and at the next renewal, as the API's preview answers it (priced
 * by the code that bills): shown before the change is confirmed.
 */
export function ChangePreview({ preview, isFetching, audience }: ChangePreviewProps) {
  if (!preview) return isFetching ? <Loading label="Working out what will be charged…" /> : null;
  const { immediate, next_renewal: renewal } = preview;
  return (
    <section
      aria-label="What will be charged"
      aria-live="polite"
      aria-busy={isFetching}
      className="space-y-3 rounded-md border border-slate-200 bg-slate-50 p-3"
    >
      <div>
        <p className="text-sm font-medium text-slate-900">
          {immediate ? `Charged now: ${chargeWords(immediate, audience)}` : 'Nothing is charged now.'}
        </p>
        {immediate && <OrderLines order={immediate} />}
      </div>
      {renewal && (
        <div>
          <p className="text-sm font-medium text-slate-900">
            Next renewal on {formatDate(renewal.renews_at)}: {chargeWords(renewal, audience)}
          </p>
          <OrderLines order={renewal} />
        </div>
      )}
    </section>
  );
}
