import { useQueryClient } from '@tanstack/react-query';
import type { Order } from '@tessera/sdk';
import { InvoiceDownload } from '../../../components/orders/invoice-download';
import { generateOrderInvoice } from '../api/generate-order-invoice';
import { getOrder, getOrderQueryOptions } from '../api/get-order';
import { getOrderInvoice } from '../api/get-order-invoice';
import { ORDERS_QUERY_KEY } from '../api/get-orders';

/** The order's invoice: generated on the first download, downloaded by a fresh link each time. */
export function OrderInvoice({ order }: { order: Order }) {
  const queryClient = useQueryClient();
  return (
    <InvoiceDownload
      isGenerated={order.is_invoice_generated}
      generate={() => generateOrderInvoice(order.id)}
      isReady={async () => {
        const fresh = await getOrder(order.id);
        if (fresh.is_invoice_generated) {
          queryClient.setQueryData(getOrderQueryOptions(order.id).queryKey, fresh);
          void queryClient.invalidateQueries({ queryKey: ORDERS_QUERY_KEY });
        }
        return fresh.is_invoice_generated;
      }}
      link={() => getOrderInvoice(order.id)}
      description="No invoice yet. It is issued to the billing name and address of the order, which are fixed once it exists."
    />
  );
}
