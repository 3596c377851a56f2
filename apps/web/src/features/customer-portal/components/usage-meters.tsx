import { ApiErrorAlert } from '../../../components/ui/alert';
import { Card } from '../../../components/ui/card';
import { DetailRow } from '../../../components/ui/detail-row';
import { EmptyState } from '../../../components/ui/empty-state';
import { Loading } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { formatDate, formatMoney, formatUnits } from '../../../lib/format';
import { useCustomerMeters } from '../api/get-customer-meters';
import { useSubscriptions } from '../api/get-subscriptions';
import { usageChargesByMeter, usageGauge } from '../logic/usage';

/**
 * The customer's meters, one card each: what was used this period against the units included (the
 * credits of their plan or benefits), drawn as a gauge and said in words, and the balance left.
 */
export function UsageMeters({ sellerName }: { sellerName: string }) {
  const meters = useCustomerMeters({ limit: 100, sorting: ['meter_name'] });
  // A live subscription with a metered price says what the usage adds to its next renewal.
  const subscriptions = useSubscriptions({ active: true, limit: 100 });
  const charges = usageChargesByMeter(subscriptions.data?.items ?? []);
  if (meters.isPending) return <Loading label="Loading your usage…" />;
  if (meters.isError) return <ApiErrorAlert error={meters.error} />;
  if (meters.data.items.length === 0)
    return (
      <EmptyState
        title="No usage yet"
        description={`When you use a service of ${sellerName} that is billed by usage, what you consume appears here.`}
      />
    );
  return (
    <ul className="grid gap-4 md:grid-cols-2">
      {meters.data.items.map((meter) => {
        const gauge = usageGauge(meter, formatUnits);
        const charge = charges.get(meter.meter_id);
        const headingId = `usage-${meter.id}`;
        return (
          <li key={meter.id}>
            <Card aria-labelledby={headingId}>
              <h2 id={headingId} className="text-base font-semibold text-slate-900">
                {meter.meter.name}
              </h2>
              <p className="mt-1 text-sm text-slate-700">{gauge.summary}</p>
              {gauge.usedPercent !== null && (
                <div aria-hidden className="mt-3 h-3 w-full overflow-hidden rounded-full bg-slate-100">
                  <div
                    className={cn('h-full rounded-full', gauge.overage > 0 ? 'bg-amber-600' : 'bg-blue-700')}
                    style={{ width: `${gauge.usedPercent}%` }}
                  />
                </div>
              )}
              <dl className="mt-3 divide-y divide-slate-100">
                <DetailRow label="Used this period">{formatUnits(meter.consumed_units)}</DetailRow>
                <DetailRow label="Included (credited)">{formatUnits(meter.credited_units)}</DetailRow>
                <DetailRow label="Balance" emphasis>
                  {formatUnits(meter.balance)}
                </DetailRow>
                {charge && (
                  <DetailRow label="Usage charges so far">{formatMoney(charge.amount, charge.currency)}</DetailRow>
                )}
              </dl>
              {charge?.billedAt && (
                <p className="mt-2 text-xs text-slate-600">
                  Billed with your renewal on {formatDate(charge.billedAt)}, for what is used until then.
                </p>
              )}
              {!charge && gauge.overage > 0 && meter.credited_units > 0 && (
                <p className="mt-2 text-xs text-slate-600">
                  Units beyond those included are billed with your next renewal, at your plan’s price per unit.
                </p>
              )}
            </Card>
          </li>
        );
      })}
    </ul>
  );
}
