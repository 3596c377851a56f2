import { PageHeader } from '../../../components/ui/page-header';
import { DownloadablesList } from '../../../features/customer-portal/components/downloadables-list';
import { usePortalSession } from '../../../features/customer-portal/session/portal-session';

/** `/portal/:slug/downloads`: the files the customer's benefits grant. */
export function Component() {
  const { storefront } = usePortalSession();
  const seller = storefront.organization.name;
  return (
    <>
      <PageHeader title="Downloads" description={`Files that come with what you bought from ${seller}.`} />
      <DownloadablesList sellerName={seller} />
    </>
  );
}
