import type { ReactNode } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/spinner';
import { TextLink } from '../../../components/ui/text-link';
import { formatCreditBalances } from '../../../lib/format';
import { useCustomer } from '../../../features/customer-portal/api/get-customer';
import { useOrders } from '../../../features/customer-portal/api/get-orders';
import { useSubscriptions } from '../../../features/customer-portal/api/get-subscriptions';
import { OrdersTable } from '../../../features/customer-portal/components/orders-list';
import { portalPath } from '../../../features/customer-portal/components/portal-shell';
import { SubscriptionsTable } from '../../../features/customer-portal/components/subscriptions-list';
import { usePortalSession } from '../../../features/customer-portal/session/portal-session';

const RECENT_ORDERS = 5;

function OverviewSection({
  id,
  title,
  more,
  children,
}: {
  id: string;
  title: string;
  more: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {more}
      </div>
      {children}
    </section>
  );
}

/** `/portal/:slug`: what the customer has now (live subscriptions) and bought lately. */
export function Component() {
  const { slug, storefront } = usePortalSession();
  const customer = useCustomer();
  const subscriptions = useSubscriptions({ active: true, limit: 20, sorting: ['-started_at'] });
  const orders = useOrders({ limit: RECENT_ORDERS, sorting: ['-created_at'] });
  const seller = storefront.organization.name;
  const name = customer.data?.name;
  const credit = customer.data ? formatCreditBalances(customer.data.credit_balances) : null;

  return (
    <div className="space-y-8">
      <PageHeader
        title={name ? `Welcome, ${name}` : 'Welcome'}
        description={`Your subscriptions, orders and benefits from ${seller}.`}
      />
      {credit && (
        <p className="rounded-md border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
          You have <strong>{credit}</strong> of credit from a plan change. It pays your next renewals before your card
          is charged.
        </p>
      )}
      <OverviewSection
        id="overview-subscriptions"
        title="Active subscriptions"
        more={<TextLink to={portalPath(slug, '/subscriptions')}>All subscriptions</TextLink>}
      >
        {subscriptions.isPending ? (
          <Loading label="Loading your subscriptions…" />
        ) : subscriptions.isError ? (
          <ApiErrorAlert error={subscriptions.error} />
        ) : subscriptions.data.items.length === 0 ? (
          <EmptyState
            title="No active subscription"
            description={`When you subscribe to a plan of ${seller}, it appears here with its next renewal.`}
          />
        ) : (
          <SubscriptionsTable slug={slug} subscriptions={subscriptions.data.items} label="Active subscriptions" />
        )}
      </OverviewSection>
      <OverviewSection
        id="overview-orders"
        title="Recent orders"
        more={<TextLink to={portalPath(slug, '/orders')}>All orders</TextLink>}
      >
        {orders.isPending ? (
          <Loading label="Loading your orders…" />
        ) : orders.isError ? (
          <ApiErrorAlert error={orders.error} />
        ) : orders.data.items.length === 0 ? (
          <EmptyState title="No orders yet" description={`Your purchases from ${seller} appear here.`} />
        ) : (
          <OrdersTable slug={slug} orders={orders.data.items} label="Recent orders" />
        )}
      </OverviewSection>
    </div>
  );
}
