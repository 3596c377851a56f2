import { useState } from 'react';
import { PageHeader } from '../../../components/ui/page-header';
import { CustomerPicker } from '../../../features/customers/components/customer-picker';
import { RevenueChart } from '../../../features/orders/components/revenue-chart';
import { OrdersExport } from '../../../features/orders/components/orders-export';
import { OrdersList } from '../../../features/orders/components/orders-list';
import { useProducts } from '../../../features/products/api/get-products';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  const [customerId, setCustomerId] = useState<string | null>(null);
  // Filters from other features, composed here so the orders feature does not reach into them.
  const products = useProducts({ organization_id: organization.id, limit: 100, sorting: ['name'] });
  const productOptions = (products.data?.items ?? []).map((product) => ({ value: product.id, label: product.name }));
  return (
    <>
      <PageHeader
        title="Orders"
        description="Every purchase and subscription payment, with its amounts and invoice."
        actions={<OrdersExport organizationId={organization.id} />}
      />
      <section aria-labelledby="revenue-heading" className="mb-8">
        <h2 id="revenue-heading" className="mb-3 text-base font-semibold text-slate-900">
          Revenue
        </h2>
        <RevenueChart organizationId={organization.id} />
      </section>
      <OrdersList
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
