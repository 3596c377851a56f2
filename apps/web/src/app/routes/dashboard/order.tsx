import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/spinner';
import { useOrder } from '../../../features/orders/api/get-order';
import { ORDERS_QUERY_KEY } from '../../../features/orders/api/get-orders';
import { OrderDetails } from '../../../features/orders/components/order-details';
import { PaymentsList } from '../../../features/payments/components/payments-list';
import { getProductQueryOptions } from '../../../features/products/api/get-product';
import { RefundDialog } from '../../../features/refunds/components/refund-dialog';
import { RefundsList } from '../../../features/refunds/components/refunds-list';
import { formatDateTime } from '../../../lib/format';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  const { orderId = '' } = useParams();
  const order = useOrder(orderId);
  const queryClient = useQueryClient();
  // The product's prices tell which lines bill usage (a metered price) and on which meter.
  const productId = order.data?.product_id ?? '';
  const product = useQuery({ ...getProductQueryOptions(productId), enabled: productId !== '' });
  const back = (
    <Link className="text-sm font-medium text-blue-800 underline" to={organizationPath(organization, '/orders')}>
      ← Orders
    </Link>
  );
  if (order.isPending) return <Loading label="Loading order…" />;
  if (order.isError)
    return (
      <div className="space-y-4">
        {back}
        <ApiErrorAlert error={order.error} />
      </div>
    );
  return (
    <>
      {back}
      <div className="mt-3">
        <PageHeader
          title={`Order of ${order.data.product.name}`}
          description={`Placed ${formatDateTime(order.data.created_at)} by ${order.data.customer.email}`}
          actions={
            <RefundDialog
              order={order.data}
              // A refund changes the order's refunded amounts and status.
              onRefunded={() => queryClient.invalidateQueries({ queryKey: ORDERS_QUERY_KEY })}
            />
          }
        />
      </div>
      <OrderDetails order={order.data} dashboardPath={organizationPath(organization)} prices={product.data?.prices} />
      <section aria-labelledby="order-payments" className="mt-8">
        <h2 id="order-payments" className="mb-3 text-base font-semibold text-slate-900">
          Payments
        </h2>
        <PaymentsList
          organizationId={organization.id}
          dashboardPath={organizationPath(organization)}
          orderId={order.data.id}
        />
      </section>
      <section aria-labelledby="order-refunds" className="mt-8">
        <h2 id="order-refunds" className="mb-3 text-base font-semibold text-slate-900">
          Refunds
        </h2>
        <RefundsList
          organizationId={organization.id}
          dashboardPath={organizationPath(organization)}
          orderId={order.data.id}
        />
      </section>
    </>
  );
}
