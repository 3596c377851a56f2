import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/spinner';
import { useCustomer } from '../../../features/customer-portal/api/get-customer';
import { BenefitGrantsList } from '../../../features/customer-portal/components/benefit-grants-list';
import { ConnectReturn } from '../../../features/customer-portal/components/connect-return';
import { usePortalSession } from '../../../features/customer-portal/session/portal-session';

/** `/portal/:slug/benefits`: license keys, downloads, notes, credits and community access. */
export function Component() {
  const { storefront } = usePortalSession();
  const customer = useCustomer();
  const seller = storefront.organization.name;
  return (
    <>
      <PageHeader title="Benefits" description={`What comes with your purchases from ${seller}.`} />
      <div className="mb-4 empty:hidden">
        <ConnectReturn />
      </div>
      {/* The layout shows the portal only once the customer is loaded. */}
      {customer.data ? (
        <BenefitGrantsList customer={customer.data} sellerName={seller} />
      ) : (
        <Loading label="Loading your benefits…" />
      )}
    </>
  );
}
