import { useState } from 'react';
import { Card, CardTitle } from '../../../components/ui/card';
import { PagedList } from '../../../components/ui/paged-list';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { useCustomerTimeline } from '../api/get-customer-timeline';
import { describeTimelineItem } from '../logic/timeline';

/** Lifetime value per currency (paid minus refunded), then everything that happened, newest first. */
export function CustomerTimeline({ customerId }: { customerId: string }) {
  const [page, setPage] = useState(1);
  const query = useCustomerTimeline({ id: customerId, page, limit: 20 });
  const values = query.data?.lifetime_value ?? [];
  return (
    <div className="space-y-4">
      <Card>
        <CardTitle>Lifetime value</CardTitle>
        {values.length === 0 ? (
          <p className="text-sm text-slate-600">No paid orders yet.</p>
        ) : (
          <dl className="flex flex-wrap gap-x-10 gap-y-3">
            {values.map((value) => (
              <div key={value.currency}>
                <dt className="text-xs font-medium text-slate-600 uppercase">{value.currency}</dt>
                <dd className="text-2xl font-semibold text-slate-900">
                  {formatMoney(value.net_amount, value.currency)}
                </dd>
                <dd className="text-xs text-slate-600">
                  {formatMoney(value.paid_amount, value.currency)} paid −{' '}
                  {formatMoney(value.refunded_amount, value.currency)} refunded
                </dd>
              </div>
            ))}
          </dl>
        )}
      </Card>
      <PagedList
        query={query}
        label="Timeline"
        loadingLabel="Loading timeline…"
        empty={<p className="text-sm text-slate-600">Nothing has happened to this customer yet.</p>}
        page={page}
        onPageChange={setPage}
      >
        {(items) => (
          <ol aria-label="Timeline" className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {items.map((item) => {
              const { title, detail } = describeTimelineItem(item);
              return (
                <li key={item.id} className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-3">
                  <div>
                    <p className="text-sm font-medium text-slate-900">{title}</p>
                    {detail ? <p className="text-sm text-slate-600">{detail}</p> : null}
                  </div>
                  <time dateTime={item.occurred_at} className="text-xs text-slate-600">
                    {formatDateTime(item.occurred_at)}
                  </time>
                </li>
              );
            })}
          </ol>
        )}
      </PagedList>
    </div>
  );
}
