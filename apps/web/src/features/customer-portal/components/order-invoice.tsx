import { useQueryClient } from '@tanstack/react-query';
import type { CustomerOrder } from '@tessera/sdk';
import { InvoiceDownload } from '../../../components/orders/invoice-download';
import { generateOrderInvoice } from '../api/generate-order-invoice';
import { getOrder, getOrderQueryOptions } from '../api/get-order';
import { getOrderInvoice } from '../api/get-order-invoice';
import { usePortalSession } from '../session/portal-session';

/** The customer's invoice of an order: generated on the first download, then downloaded. */
export function OrderInvoice({ order }: { order: CustomerOrder }) {
  const { queryKey, client } = usePortalSession();
  const queryClient = useQueryClient();
  return (
    <InvoiceDownload
      isGenerated={order.is_invoice_generated}
      generate={() => generateOrderInvoice(client, order.id)}
      isReady={async () => {
        const fresh = await getOrder(client, order.id);
        if (fresh.is_invoice_generated) {
          queryClient.setQueryData(getOrderQueryOptions(queryKey, client, order.id).queryKey, fresh);
        }
        return fresh.is_invoice_generated;
      }}
      link={() => getOrderInvoice(client, order.id)}
      description="Your invoice is issued to the billing name and address of this order; they cannot be changed once it exists."
    />
  );
}
