import type { TimeInterval } from '@tessera/sdk';
import { useState } from 'react';
import { Alert, ApiErrorAlert } from '../../../components/ui/alert';
import { BarChart } from '../../../components/ui/chart';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { Loading } from '../../../components/ui/spinner';
import { formatUnits } from '../../../lib/format';
import { useMeterQuantities } from '../api/get-meter-quantities';
import { bucketLabel, defaultRange, INTERVALS, rangeTimestamps, type DayRange } from '../logic/quantities';

export interface MeterQuantitiesProps {
  meterId: string;
  meterName: string;
  /** Only this customer's usage (a customer filter composed by the page). */
  customerId?: string;
}

/** The meter's units per hour, day, week, month or year over a range of days, with the total. */
export function MeterQuantities({ meterId, meterName, customerId }: MeterQuantitiesProps) {
  // Fixed for the life of the page, so the default range (and the query key) does not move between renders.
  const [today] = useState(() => new Date());
  const [interval, setTimeInterval] = useState<TimeInterval>('day');
  const [range, setRange] = useState<DayRange>(() => defaultRange('day', today));
  const timestamps = rangeTimestamps(range, interval);
  const request = 'problem' in timestamps ? null : { id: meterId, interval, customer_id: customerId, ...timestamps };
  const query = useMeterQuantities(request);
  const intervalLabel = INTERVALS.find((option) => option.value === interval)!.label;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-4">
        <Field label="Interval" className="w-full sm:w-40">
          <Select
            value={interval}
            options={INTERVALS}
            onValueChange={(value) => {
              const next = value as TimeInterval;
              setTimeInterval(next);
              setRange(defaultRange(next, today));
            }}
          />
        </Field>
        <Field label="From" className="w-full sm:w-44">
          <Input
            type="date"
            value={range.start}
            onChange={(event) => setRange({ ...range, start: event.target.value })}
          />
        </Field>
        <Field label="To" className="w-full sm:w-44">
          <Input type="date" value={range.end} onChange={(event) => setRange({ ...range, end: event.target.value })} />
        </Field>
      </div>
      {'problem' in timestamps ? (
        <Alert tone="error" title="This range cannot be charted">
          {timestamps.problem}
        </Alert>
      ) : query.isPending ? (
        <Loading label="Loading quantities…" />
      ) : query.isError ? (
        <ApiErrorAlert error={query.error} />
      ) : (
        <BarChart
          data={query.data.quantities.map((bucket) => ({
            key: bucket.timestamp,
            label: bucketLabel(bucket.timestamp, interval),
            value: bucket.quantity,
          }))}
          formatValue={formatUnits}
          categoryHeader={interval === 'hour' ? 'Hour (UTC)' : 'Period starting (UTC)'}
          valueHeader="Units"
          tableLabel={`${meterName}: units per ${interval}`}
          caption={
            <>
              <span className="font-medium text-slate-900">
                {meterName}, {intervalLabel.toLowerCase()} from {range.start} to {range.end}:{' '}
                {formatUnits(query.data.total)} units in total.
              </span>{' '}
              Each bar is the meter’s aggregation over the events of its period (UTC), as billing computes it
              {customerId ? ', for this customer only' : ', for all customers'}.
            </>
          }
        />
      )}
    </div>
  );
}
