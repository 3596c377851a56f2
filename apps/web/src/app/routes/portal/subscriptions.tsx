import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';
import { PagedList, usePage } from '../../../components/ui/paged-list';
import { useSubscriptions } from '../../../features/customer-portal/api/get-subscriptions';
import { SubscriptionsTable } from '../../../features/customer-portal/components/subscriptions-list';
import { usePortalSession } from '../../../features/customer-portal/session/portal-session';

const PAGE_SIZE = 20;

/** `/portal/:slug/subscriptions`: live and past subscriptions. */
export function Component() {
  const { slug, storefront } = usePortalSession();
  const [page, setPage] = usePage('');
  const query = useSubscriptions({ page, limit: PAGE_SIZE, sorting: ['-started_at'] });
  return (
    <>
      <PageHeader title="Subscriptions" description="Cancel, resume or change the plan of a subscription." />
      <PagedList
        query={query}
        label="Subscriptions"
        loadingLabel="Loading your subscriptions…"
        page={page}
        onPageChange={setPage}
        empty={
          <EmptyState
            title="No subscriptions"
            description={`You have not subscribed to a plan of ${storefront.organization.name}.`}
          />
        }
      >
        {(subscriptions) => <SubscriptionsTable slug={slug} subscriptions={subscriptions} />}
      </PagedList>
    </>
  );
}
