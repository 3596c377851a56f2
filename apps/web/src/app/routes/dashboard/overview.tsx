import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Card, CardTitle } from '../../../components/ui/card';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/spinner';
import { formatDate, formatMoney } from '../../../lib/format';
import { dayIn } from '../../../features/metrics/components/overview';
import { MetricsOverview } from '../../../features/metrics/components/metrics-overview';
import { useOrganizationClockOffset } from '../../../features/orders/api/get-organization-clock';
import { useOrders } from '../../../features/orders/api/get-orders';
import { useProducts } from '../../../features/products/api/get-products';
import { useSubscriptions } from '../../../features/subscriptions/api/get-subscriptions';
import { organizationPath, useCurrentOrganization } from './current-organization';

const RECENT = 5;

/** The organization's home: how the business is doing (metrics) and its latest sales. */
export function Component() {
  const organization = useCurrentOrganization();
  const clock = useOrganizationClockOffset(organization.id);
  const [browserNow] = useState(() => Date.now());
  const [timeZone] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  // Features are composed here: the metrics feature does not reach into products, orders or subscriptions.
  const products = useProducts({ organization_id: organization.id, limit: 100, sorting: ['name'] });
  const productOptions = (products.data?.items ?? []).map((product) => ({ value: product.id, label: product.name }));

  return (
    <>
      <PageHeader
        title="Overview"
        description="Revenue, subscriptions and checkouts over time, and the latest sales."
      />
      {clock.isPending ? (
        <Loading label="Loading metrics…" />
      ) : clock.isError ? (
        <ApiErrorAlert error={clock.error} />
      ) : (
        <MetricsOverview
          organizationId={organization.id}
          today={dayIn(new Date(browserNow + clock.data * 1000), timeZone)}
          timeZone={timeZone}
          productOptions={productOptions}
        />
      )}
      <div className="mt-8 grid grid-cols-1 gap-4 lg:grid-cols-2">
        <RecentOrders organizationId={organization.id} path={organizationPath(organization)} />
        <RecentSubscriptions organizationId={organization.id} path={organizationPath(organization)} />
      </div>
    </>
  );
}

function RecentList({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card aria-label={title}>
      <CardTitle>{title}</CardTitle>
      {children}
    </Card>
  );
}

function RecentOrders({ organizationId, path }: { organizationId: string; path: string }) {
  const orders = useOrders({ organization_id: organizationId, limit: RECENT, sorting: ['-created_at'] });
  return (
    <RecentList title="Recent orders">
      {orders.isPending ? (
        <Loading label="Loading orders…" />
      ) : orders.isError ? (
        <ApiErrorAlert error={orders.error} />
      ) : orders.data.items.length === 0 ? (
        <p className="text-sm text-slate-600">No orders yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {orders.data.items.map((order) => (
            <li key={order.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <Link className="font-medium text-blue-800 underline" to={`${path}/orders/${order.id}`}>
                {order.product?.name ?? 'Order'}
              </Link>
              <span className="text-slate-600">{order.customer.email}</span>
              <span className="tabular-nums">{formatMoney(order.net_amount, order.currency)}</span>
              <span className="text-slate-600">{formatDate(order.created_at)}</span>
            </li>
          ))}
        </ul>
      )}
      <Link className="mt-3 inline-block text-sm font-medium text-blue-800 underline" to={`${path}/orders`}>
        All orders
      </Link>
    </RecentList>
  );
}

function RecentSubscriptions({ organizationId, path }: { organizationId: string; path: string }) {
  const subscriptions = useSubscriptions({ organization_id: organizationId, limit: RECENT, sorting: ['-started_at'] });
  return (
    <RecentList title="Recent subscriptions">
      {subscriptions.isPending ? (
        <Loading label="Loading subscriptions…" />
      ) : subscriptions.isError ? (
        <ApiErrorAlert error={subscriptions.error} />
      ) : subscriptions.data.items.length === 0 ? (
        <p className="text-sm text-slate-600">No subscriptions yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {subscriptions.data.items.map((subscription) => (
            <li key={subscription.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <Link className="font-medium text-blue-800 underline" to={`${path}/subscriptions/${subscription.id}`}>
                {subscription.product.name}
              </Link>
              <span className="text-slate-600">{subscription.customer.email}</span>
              <span className="tabular-nums">
                {formatMoney(subscription.amount, subscription.currency)} / {subscription.recurring_interval}
              </span>
              <span className="text-slate-600">{subscription.status}</span>
            </li>
          ))}
        </ul>
      )}
      <Link className="mt-3 inline-block text-sm font-medium text-blue-800 underline" to={`${path}/subscriptions`}>
        All subscriptions
      </Link>
    </RecentList>
  );
}
