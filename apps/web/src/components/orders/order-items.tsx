import type { OrderItemSchema } from '@tessera/sdk';
import { formatMoney } from '../../lib/format';
import { Badge } from '../ui/badge';
import { DataTable } from '../ui/table';

export interface OrderItemsProps {
  items: readonly OrderItemSchema[];
  currency: string;
  /** The badge of a prorated line, in the reader's words. */
  prorationLabel: string;
  className?: string;
}

/** The lines of an order, each with its amount and tax. */
export function OrderItems({ items, currency, prorationLabel, className }: OrderItemsProps) {
  return (
    <section aria-labelledby="order-items" className={className}>
      <h2 id="order-items" className="mb-3 text-base font-semibold text-slate-900">
        Items
      </h2>
      <DataTable
        label="Items"
        rows={items}
        columns={[
          {
            header: 'Description',
            cell: (item) => (
              <>
                {item.label}
                {item.proration && (
                  <span className="ml-2">
                    <Badge tone="info">{prorationLabel}</Badge>
                  </span>
                )}
              </>
            ),
          },
          { header: 'Amount', align: 'right', cell: (item) => formatMoney(item.amount, currency) },
          { header: 'Tax', align: 'right', cell: (item) => formatMoney(item.tax_amount, currency) },
        ]}
      />
    </section>
  );
}
