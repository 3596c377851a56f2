import { useState } from 'react';
import { PageHeader } from '../../../components/ui/page-header';
import { CustomerPicker } from '../../../features/customers/components/customer-picker';
import { useProducts } from '../../../features/products/api/get-products';
import { SubscriptionsExport } from '../../../features/subscriptions/components/subscriptions-export';
import { SubscriptionsList } from '../../../features/subscriptions/components/subscriptions-list';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  const [customerId, setCustomerId] = useState<string | null>(null);
  // Filters from other features, composed here so the subscriptions feature does not reach into them.
  const products = useProducts({ organization_id: organization.id, is_recurring: true, limit: 100, sorting: ['name'] });
  const productOptions = (products.data?.items ?? []).map((product) => ({ value: product.id, label: product.name }));
  return (
    <>
      <PageHeader
        title="Subscriptions"
        description="Recurring purchases: who pays what, until when, and what they canceled."
        actions={<SubscriptionsExport organizationId={organization.id} />}
      />
      <SubscriptionsList
        organizationId={organization.id}
        dashboardPath={organizationPath(organization)}
        customerId={customerId ?? undefined}
        productOptions={productOptions}
        filters={
          <CustomerPicker organizationId={organization.id} onChange={setCustomerId} className="w-full sm:w-72" />
        }
      />
    </>
  );
}
