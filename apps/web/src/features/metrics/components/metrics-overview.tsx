import type { MetricsGetRequest, MetricsGetResponse } from '@tessera/sdk';
import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { BarChart } from '../../../components/ui/chart';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Select, type SelectOption } from '../../../components/ui/select';
import { Loading } from '../../../components/ui/spinner';
import { formatMoney } from '../../../lib/format';
import { useMetrics } from '../api/get-metrics';
import {
  change,
  formatChange,
  periodLabel,
  periodsCsv,
  PRESETS,
  presetRange,
  previousRange,
  type DateRange,
  type Interval,
  type Preset,
} from './overview';

const ALL_PRODUCTS = 'all';
const CUSTOM = 'custom';

const INTERVALS: { value: Interval; label: string }[] = [
  { value: 'hour', label: 'Hour' },
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
  { value: 'month', label: 'Month' },
  { value: 'year', label: 'Year' },
];

type Totals = MetricsGetResponse['totals'];
type Slug = keyof Totals & string;

interface Headline {
  slug: Slug;
  label: string;
  /** How the range's value reads: the total of the periods, or the value at the range's end. */
  note: string;
  kind: 'money' | 'count' | 'percent';
}

const HEADLINES: Headline[] = [
  { slug: 'revenue', label: 'Revenue', note: 'paid orders, before tax', kind: 'money' },
  { slug: 'orders', label: 'Orders', note: 'paid orders', kind: 'count' },
  { slug: 'monthly_recurring_revenue', label: 'MRR', note: 'at the end of the range', kind: 'money' },
  { slug: 'active_subscriptions', label: 'Active subscriptions', note: 'at the end of the range', kind: 'count' },
  { slug: 'checkouts_conversion', label: 'Checkout conversion', note: 'succeeded ÷ checkouts', kind: 'percent' },
  { slug: 'active_trials', label: 'Active trials', note: 'free trials at the end of the range', kind: 'count' },
  { slug: 'trial_conversions', label: 'Trial conversions', note: 'trials that became paying', kind: 'count' },
];

/** A headline's value over the whole range: the API's total, but conversion over all the range's checkouts. */
function headlineValue(totals: Totals, slug: Slug): number {
  if (slug === 'checkouts_conversion')
    return totals.checkouts === 0 ? 0 : totals.succeeded_checkouts / totals.checkouts;
  return totals[slug];
}

const CHARTS: { slug: Slug; title: string; kind: Headline['kind'] }[] = [
  { slug: 'revenue', title: 'Revenue', kind: 'money' },
  { slug: 'monthly_recurring_revenue', title: 'Monthly recurring revenue', kind: 'money' },
  { slug: 'active_subscriptions', title: 'Active subscriptions', kind: 'count' },
  { slug: 'checkouts_conversion', title: 'Checkout conversion', kind: 'percent' },
  { slug: 'orders', title: 'Orders', kind: 'count' },
];

export interface MetricsOverviewProps {
  organizationId: string;
  /** The organization's today (YYYY-MM-DD in `timeZone`): its test clock may run ahead. */
  today: string;
  /** IANA time zone the days are cut in (the browser's). */
  timeZone: string;
  /** The organization's products for the filter. */
  productOptions: readonly SelectOption[];
  /** The currency amounts are shown in (the API adds amounts as they are). */
  currency?: string;
}

/** Headline figures with their change against the previous range, charts per period, CSV export. */
export function MetricsOverview({
  organizationId,
  today,
  timeZone,
  productOptions,
  currency = 'usd',
}: MetricsOverviewProps) {
  const [preset, setPreset] = useState<Preset | typeof CUSTOM>('30d');
  const [range, setRange] = useState<DateRange>(() => presetRange(30, today));
  const [interval, setInterval] = useState<Interval>('day');
  const [product, setProduct] = useState(ALL_PRODUCTS);

  const request = (dates: DateRange): MetricsGetRequest => ({
    organization_id: [organizationId],
    // Both kinds: no billing type filter.
    billing_type: ['one_time', 'recurring'],
    start_date: dates.start,
    end_date: dates.end,
    interval,
    timezone: timeZone,
    ...(product === ALL_PRODUCTS ? {} : { product_id: [product] }),
  });
  const current = useMetrics(request(range));
  const previous = useMetrics(request(previousRange(range)));

  const format = (kind: Headline['kind'], value: number) =>
    kind === 'money'
      ? formatMoney(Math.round(value), currency)
      : kind === 'percent'
        ? `${(Math.round(value * 1000) / 10).toLocaleString('en-US')}%`
        : Math.round(value).toLocaleString('en-US');

  const choosePreset = (value: string) => {
    setPreset(value as Preset);
    const chosen = PRESETS.find((candidate) => candidate.value === value);
    if (chosen) {
      setRange(presetRange(chosen.days, today));
      setInterval(chosen.interval);
    }
  };
  const setDay = (key: keyof DateRange) => (event: { target: { value: string } }) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(event.target.value)) return;
    setPreset(CUSTOM);
    setRange((before) => ({ ...before, [key]: event.target.value }));
  };

  const exportCsv = (data: MetricsGetResponse) => {
    const slugs = Object.keys(data.metrics);
    const blob = new Blob([periodsCsv(data.periods, slugs)], { type: 'text/csv' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = `metrics-${range.start}-${range.end}-${interval}.csv`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1_000);
  };

  return (
    <div className="space-y-6">
      <form
        aria-label="Metrics range"
        className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5"
        onSubmit={(event) => event.preventDefault()}
      >
        <Field label="Range">
          <Select
            value={preset}
            onValueChange={choosePreset}
            options={[...PRESETS.map(({ value, label }) => ({ value, label })), { value: CUSTOM, label: 'Custom' }]}
          />
        </Field>
        <Field label="From">
          <Input type="date" value={range.start} max={range.end} onChange={setDay('start')} />
        </Field>
        <Field label="To">
          <Input type="date" value={range.end} min={range.start} onChange={setDay('end')} />
        </Field>
        <Field label="Interval">
          <Select value={interval} onValueChange={(value) => setInterval(value as Interval)} options={INTERVALS} />
        </Field>
        <Field label="Product">
          <Select
            value={product}
            onValueChange={setProduct}
            options={[{ value: ALL_PRODUCTS, label: 'All products' }, ...productOptions]}
          />
        </Field>
      </form>

      {current.isError ? (
        <ApiErrorAlert error={current.error} />
      ) : current.isPending ? (
        <Loading label="Loading metrics…" />
      ) : (
        <>
          <section aria-labelledby="headline-heading">
            <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
              <h2 id="headline-heading" className="text-base font-semibold text-slate-900">
                {range.start} to {range.end}
              </h2>
              <Button variant="secondary" size="sm" onClick={() => exportCsv(current.data)}>
                Export CSV
              </Button>
            </div>
            <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
              {HEADLINES.map((headline) => {
                const value = headlineValue(current.data.totals, headline.slug);
                const before = previous.data && headlineValue(previous.data.totals, headline.slug);
                const delta = before === undefined ? undefined : change(value, before);
                return (
                  <li
                    key={headline.slug}
                    aria-label={headline.label}
                    className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
                  >
                    <p className="text-sm font-medium text-slate-600">{headline.label}</p>
                    <p className="mt-1 text-2xl font-semibold text-slate-900" data-testid="headline-value">
                      {format(headline.kind, value)}
                    </p>
                    <p className="mt-1 text-xs text-slate-600">
                      {delta === undefined
                        ? headline.note
                        : `${formatChange(delta)} vs previous ${format(headline.kind, before!)} · ${headline.note}`}
                    </p>
                  </li>
                );
              })}
            </ul>
          </section>
          <section aria-labelledby="charts-heading" className="grid grid-cols-1 gap-4 xl:grid-cols-2">
            <h2 id="charts-heading" className="sr-only">
              Charts
            </h2>
            {CHARTS.map((chart) => (
              <BarChart
                key={chart.slug}
                data={current.data.periods.map((period) => ({
                  key: period.timestamp,
                  label: periodLabel(period.timestamp, interval, timeZone),
                  value: period[chart.slug],
                }))}
                formatValue={(value) => format(chart.kind, value)}
                categoryHeader="Period"
                valueHeader={chart.title}
                tableLabel={`${chart.title} per ${interval}`}
                caption={
                  <>
                    <span className="font-medium text-slate-900">
                      {chart.title} per {interval}: {format(chart.kind, headlineValue(current.data.totals, chart.slug))}
                    </span>{' '}
                    {current.data.metrics[chart.slug]?.display_name}
                  </>
                }
              />
            ))}
          </section>
        </>
      )}
    </div>
  );
}
