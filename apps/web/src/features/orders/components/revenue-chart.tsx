import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { BarChart } from '../../../components/ui/chart';
import { Loading } from '../../../components/ui/spinner';
import { formatMoney, formatShortDay } from '../../../lib/format';
import { useOrganizationClockOffset } from '../api/get-organization-clock';
import { useRecentOrders } from '../api/get-recent-orders';
import { mainCurrency, organizationNow, otherCurrencies, revenuePerDay, windowStart } from './revenue';

const DAYS = 30;

/** Revenue per day over the last 30 days, computed in the page from the organization's orders. */
export function RevenueChart({ organizationId }: { organizationId: string }) {
  // The organization's today: its test clock may run ahead of the server's (and of this browser's).
  const clock = useOrganizationClockOffset(organizationId);
  if (clock.isPending) return <Loading label="Loading revenue…" />;
  if (clock.isError) return <ApiErrorAlert error={clock.error} />;
  return <RevenueChartOn organizationId={organizationId} offsetSeconds={clock.data} />;
}

function RevenueChartOn({ organizationId, offsetSeconds }: { organizationId: string; offsetSeconds: number }) {
  // Fixed for the life of the page, so the window (and the query key) does not move between renders.
  const [browserNow] = useState(() => Date.now());
  const today = organizationNow(browserNow, offsetSeconds);
  const since = windowStart(today, DAYS).toISOString();
  const query = useRecentOrders(organizationId, since);

  if (query.isPending) return <Loading label="Loading revenue…" />;
  if (query.isError) return <ApiErrorAlert error={query.error} />;

  const { orders, isComplete } = query.data;
  const currency = mainCurrency(orders) ?? 'usd';
  const series = revenuePerDay(orders, currency, today, DAYS);
  const total = series.reduce((sum, day) => sum + day.amount, 0);
  const others = otherCurrencies(orders, currency);
  const format = (amount: number) => formatMoney(amount, currency);

  return (
    <BarChart
      data={series.map((day) => ({ key: day.day, label: formatShortDay(day.date), value: day.amount }))}
      formatValue={format}
      categoryHeader="Day"
      valueHeader={`Revenue (${currency.toUpperCase()})`}
      tableLabel="Revenue per day"
      caption={
        <>
          <span className="font-medium text-slate-900">
            Revenue per day, last {DAYS} days: {format(total)}.
          </span>{' '}
          Computed from the orders listed for this period: net amount of paid orders (after discounts, before tax), less
          refunds, by the day the order was placed in your time zone.
          {!isComplete && ` Only the ${orders.length} most recent orders are counted.`}
          {others.length > 0 && ` Orders in ${others.map((code) => code.toUpperCase()).join(', ')} are not included.`}
        </>
      }
    />
  );
}
