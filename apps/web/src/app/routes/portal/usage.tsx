import { PageHeader } from '../../../components/ui/page-header';
import { UsageMeters } from '../../../features/customer-portal/components/usage-meters';
import { usePortalSession } from '../../../features/customer-portal/session/portal-session';

/** `/portal/:slug/usage`: the customer's metered usage this period, per meter. */
export function Component() {
  const { storefront } = usePortalSession();
  const seller = storefront.organization.name;
  return (
    <>
      <PageHeader
        title="Usage"
        description={`What you have used of ${seller}’s usage-billed services this billing period, and what is left.`}
      />
      <UsageMeters sellerName={seller} />
    </>
  );
}
