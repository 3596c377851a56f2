import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';
import { PagedList, usePage } from '../../../components/ui/paged-list';
import { useOrders } from '../../../features/customer-portal/api/get-orders';
import { OrdersTable } from '../../../features/customer-portal/components/orders-list';
import { usePortalSession } from '../../../features/customer-portal/session/portal-session';

const PAGE_SIZE = 20;

/** `/portal/:slug/orders`: every order, newest first. */
export function Component() {
  const { slug, storefront } = usePortalSession();
  const [page, setPage] = usePage('');
  const query = useOrders({ page, limit: PAGE_SIZE, sorting: ['-created_at'] });
  return (
    <>
      <PageHeader title="Orders" description="Your purchases, renewals and plan changes, with their receipts." />
      <PagedList
        query={query}
        label="Orders"
        loadingLabel="Loading your orders…"
        page={page}
        onPageChange={setPage}
        empty={
          <EmptyState
            title="No orders yet"
            description={`Your purchases from ${storefront.organization.name} appear here.`}
          />
        }
      >
        {(orders) => <OrdersTable slug={slug} orders={orders} />}
      </PagedList>
    </>
  );
}
