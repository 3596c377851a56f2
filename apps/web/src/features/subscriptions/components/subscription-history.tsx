import { useState } from 'react';
import { PagedList } from '../../../components/ui/paged-list';
import { formatDateTime } from '../../../lib/format';
import { useSubscriptionHistory } from '../api/get-subscription-history';
import { describeSubscriptionChange } from '../logic/history';

/** The subscription's changes, newest first: plan and discount changes, cancellations and their reasons, dunning. */
export function SubscriptionHistory({ subscriptionId }: { subscriptionId: string }) {
  const [page, setPage] = useState(1);
  const query = useSubscriptionHistory({ id: subscriptionId, page, limit: 20 });
  return (
    <PagedList
      query={query}
      label="History"
      loadingLabel="Loading history…"
      empty={<p className="text-sm text-slate-600">No change recorded yet.</p>}
      page={page}
      onPageChange={setPage}
    >
      {(items) => (
        <ol aria-label="History" className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {items.map((change) => {
            const { title, detail } = describeSubscriptionChange(change);
            return (
              <li key={change.id} className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-3">
                <div>
                  <p className="text-sm font-medium text-slate-900">{title}</p>
                  <p className="text-sm text-slate-600">{detail}</p>
                </div>
                <time dateTime={change.created_at} className="text-xs text-slate-600">
                  {formatDateTime(change.created_at)}
                </time>
              </li>
            );
          })}
        </ol>
      )}
    </PagedList>
  );
}
