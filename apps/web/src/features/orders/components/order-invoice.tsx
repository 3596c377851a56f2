import type { Order } from '@tessera/sdk';
import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { Loading } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { useGenerateOrderInvoice } from '../api/generate-order-invoice';
import { useOrderInvoice } from '../api/get-order-invoice';

/**
 * The order's invoice: opened when it exists, otherwise requested. Generation runs in the background
 * (the API accepts the request with 202), so the page says it was requested rather than waiting.
 */
export function OrderInvoice({ order }: { order: Order }) {
  const invoice = useOrderInvoice(order.id, { enabled: order.is_invoice_generated });
  const generate = useGenerateOrderInvoice();
  const [requested, setRequested] = useState(false);
  const toast = useToast();

  return (
    <Card>
      <CardTitle>Invoice</CardTitle>
      {order.is_invoice_generated ? (
        invoice.isPending ? (
          <Loading label="Loading invoice…" />
        ) : invoice.isError ? (
          <ApiErrorAlert error={invoice.error} />
        ) : (
          <Button asChild variant="secondary">
            <a href={invoice.data.url} target="_blank" rel="noreferrer">
              Open invoice
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </Button>
        )
      ) : requested ? (
        <p role="status" className="text-sm text-slate-700">
          The invoice has been requested. It is generated in the background and can be opened here once ready.
        </p>
      ) : (
        <div className="space-y-3">
          <p className="text-sm text-slate-600">
            No invoice yet. It is issued to the billing name and address of the order, which are fixed once it exists.
          </p>
          <Button
            variant="secondary"
            isPending={generate.isPending}
            onClick={() =>
              generate.mutate(order.id, {
                onSuccess: () => {
                  setRequested(true);
                  toast('Invoice requested');
                },
              })
            }
          >
            Generate invoice
          </Button>
          <ApiErrorAlert error={generate.error} />
        </div>
      )}
    </Card>
  );
}
