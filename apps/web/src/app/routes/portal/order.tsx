import { useParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/spinner';
import { TextLink } from '../../../components/ui/text-link';
import { useOrder } from '../../../features/customer-portal/api/get-order';
import { MissingResource } from '../../../features/customer-portal/components/missing-resource';
import { OrderDetails } from '../../../features/customer-portal/components/order-details';
import { portalPath } from '../../../features/customer-portal/components/portal-shell';
import { usePortalSession } from '../../../features/customer-portal/session/portal-session';
import { formatDate } from '../../../lib/format';

/** `/portal/:slug/orders/:orderId`: one order with its items, amounts and billing address. */
export function Component() {
  const { slug } = usePortalSession();
  const { orderId = '' } = useParams();
  const order = useOrder(orderId);
  const back = <TextLink to={portalPath(slug, '/orders')}>← Orders</TextLink>;

  if (order.isPending) return <Loading label="Loading your order…" />;
  if (order.isError) return <MissingResource error={order.error} noun="Order" back={back} />;
  return (
    <>
      {back}
      <div className="mt-3">
        <PageHeader
          title={`Order of ${order.data.product.name}`}
          description={`Placed on ${formatDate(order.data.created_at)}`}
        />
      </div>
      <OrderDetails slug={slug} order={order.data} />
    </>
  );
}
