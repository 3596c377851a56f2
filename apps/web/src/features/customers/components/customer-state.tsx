import type { CustomerState as State } from '@tessera/sdk';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Card, CardTitle } from '../../../components/ui/card';
import { Loading } from '../../../components/ui/spinner';
import { TextLink } from '../../../components/ui/text-link';
import { formatDate } from '../../../lib/format';
import { useCustomerState } from '../api/get-customer-state';
import { describeSubscriptionPrice } from '../../../components/subscriptions/subscription-price';

const BENEFIT_TYPES: Record<State['granted_benefits'][number]['benefit_type'], string> = {
  custom: 'Custom',
  discord: 'Discord role',
  github_repository: 'GitHub repository access',
  downloadables: 'File downloads',
  license_keys: 'License key',
  meter_credit: 'Usage credits',
};

export interface CustomerStateProps {
  customerId: string;
  /** Names of the organization's products and benefits by id (the state carries ids only). */
  productNames: ReadonlyMap<string, string>;
  benefitNames: ReadonlyMap<string, string>;
  /** Names of the organization's meters by id; a meter's page by its id. */
  meterNames?: ReadonlyMap<string, string>;
  meterPath?(meterId: string): string;
  subscriptionPath(subscriptionId: string): string;
}

/** What the customer has right now: active subscriptions, granted benefits, usage meters. */
export function CustomerState({
  customerId,
  productNames,
  benefitNames,
  meterNames,
  meterPath,
  subscriptionPath,
}: CustomerStateProps) {
  const state = useCustomerState(customerId);
  if (state.isPending) return <Loading label="Loading what the customer has…" />;
  if (state.isError) return <ApiErrorAlert error={state.error} />;
  const { active_subscriptions: subscriptions, granted_benefits: benefits, active_meters: meters } = state.data;

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Card>
        <CardTitle>Active subscriptions</CardTitle>
        {subscriptions.length === 0 ? (
          <p className="text-sm text-slate-600">No active subscription.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {subscriptions.map((subscription) => (
              <li key={subscription.id} className="py-2 text-sm">
                <TextLink to={subscriptionPath(subscription.id)}>
                  {productNames.get(subscription.product_id) ?? 'Subscription'}
                </TextLink>
                <p className="text-slate-700">{describeSubscriptionPrice(subscription)}</p>
                <p className="text-slate-600">
                  {subscription.cancel_at_period_end ? (
                    <>
                      <Badge tone="warning">Canceling</Badge> ends {formatDate(subscription.ends_at)}
                    </>
                  ) : (
                    `Renews ${formatDate(subscription.current_period_end)}`
                  )}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card>
        <CardTitle>Granted benefits</CardTitle>
        {benefits.length === 0 ? (
          <p className="text-sm text-slate-600">No benefit granted.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {benefits.map((grant) => (
              <li key={grant.id} className="py-2 text-sm">
                <p className="font-medium text-slate-900">
                  {benefitNames.get(grant.benefit_id) ?? BENEFIT_TYPES[grant.benefit_type]}
                </p>
                <p className="text-slate-600">
                  {BENEFIT_TYPES[grant.benefit_type]} · granted {formatDate(grant.granted_at)}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card>
        <CardTitle>Usage meters</CardTitle>
        {meters.length === 0 ? (
          <p className="text-sm text-slate-600">No usage recorded.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {meters.map((meter) => (
              <li key={meter.id} className="py-2 text-sm">
                {meterNames?.has(meter.meter_id) && meterPath ? (
                  <TextLink to={meterPath(meter.meter_id)}>{meterNames.get(meter.meter_id)}</TextLink>
                ) : (
                  <p className="font-mono text-xs text-slate-700">{meter.meter_id}</p>
                )}
                <p className="text-slate-900">
                  {meter.consumed_units.toLocaleString()} used of {meter.credited_units.toLocaleString()} credited ·
                  balance {meter.balance.toLocaleString()}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
