import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/spinner';
import { useBenefits } from '../../../features/benefits/api/get-benefits';
import { CustomerMetersList } from '../../../features/customer-meters/components/customer-meters-list';
import { useCustomer } from '../../../features/customers/api/get-customer';
import { CustomerDetails } from '../../../features/customers/components/customer-details';
import { DeleteCustomerButton, EditCustomerButton } from '../../../features/customers/components/customer-edit';
import { CustomerPortalLink } from '../../../features/customers/components/customer-portal-link';
import { CustomerState } from '../../../features/customers/components/customer-state';
import { CustomerTimeline } from '../../../features/customers/components/customer-timeline';
import { OrdersList } from '../../../features/orders/components/orders-list';
import { useMeters } from '../../../features/meters/api/get-meters';
import { useProducts } from '../../../features/products/api/get-products';
import { SubscriptionsList } from '../../../features/subscriptions/components/subscriptions-list';
import { organizationPath, useCurrentOrganization } from './current-organization';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-8">
      <h2 id={id} className="mb-3 text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function Component() {
  const organization = useCurrentOrganization();
  const { customerId = '' } = useParams();
  const customer = useCustomer(customerId);
  // The customer's state names products and benefits by id only; their names come from those features.
  const products = useProducts({ organization_id: organization.id, limit: 100 });
  const benefits = useBenefits({ organization_id: organization.id, limit: 100 });
  const productNames = new Map((products.data?.items ?? []).map((product) => [product.id, product.name]));
  const benefitNames = new Map((benefits.data?.items ?? []).map((benefit) => [benefit.id, benefit.description]));
  const meters = useMeters({ organization_id: organization.id, limit: 100, sorting: ['name'] });
  const meterNames = new Map((meters.data?.items ?? []).map((meter) => [meter.id, meter.name]));
  const dashboardPath = organizationPath(organization);

  if (customer.isPending) return <Loading label="Loading customer…" />;
  if (customer.isError) return <ApiErrorAlert error={customer.error} />;
  return (
    <>
      <Link className="text-sm font-medium text-blue-800 underline" to={organizationPath(organization, '/customers')}>
        ← Customers
      </Link>
      <div className="mt-3">
        <PageHeader title={customer.data.name ?? customer.data.email} description={customer.data.email} />
      </div>
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <EditCustomerButton customer={customer.data} />
        <DeleteCustomerButton customer={customer.data} listPath={organizationPath(organization, '/customers')} />
      </div>
      <CustomerDetails customer={customer.data} />
      <CustomerPortalLink customer={customer.data} sellerName={organization.name} />
      <Section id="customer-state" title="Current state">
        <CustomerState
          customerId={customer.data.id}
          productNames={productNames}
          benefitNames={benefitNames}
          meterNames={meterNames}
          meterPath={(id) => `${dashboardPath}/meters/${id}`}
          subscriptionPath={(id) => `${dashboardPath}/subscriptions/${id}`}
        />
      </Section>
      <Section id="customer-timeline" title="Timeline">
        <CustomerTimeline customerId={customer.data.id} />
      </Section>
      <Section id="customer-usage" title="Usage">
        <p className="mb-3 text-sm text-slate-600">
          Per meter, this period: units consumed since the meter’s last reset at renewal, units credited by benefits,
          and the balance left.
        </p>
        <CustomerMetersList
          organizationId={organization.id}
          dashboardPath={dashboardPath}
          customerId={customer.data.id}
          label="Usage"
        />
      </Section>
      <Section id="customer-subscriptions" title="Subscriptions">
        <SubscriptionsList
          organizationId={organization.id}
          dashboardPath={dashboardPath}
          customerId={customer.data.id}
          showCustomer={false}
        />
      </Section>
      <Section id="customer-orders" title="Orders">
        <OrdersList
          organizationId={organization.id}
          dashboardPath={dashboardPath}
          customerId={customer.data.id}
          showCustomer={false}
        />
      </Section>
    </>
  );
}
