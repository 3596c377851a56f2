import type { OrderItemSchema, ProductPrice } from '@tessera/sdk';
import { formatMoney, formatUnits } from '../../lib/format';
import { formatUnitPrice, meteredLine } from '../../lib/metered-lines';
import { Badge } from '../ui/badge';
import { DataTable } from '../ui/table';
import { TextLink } from '../ui/text-link';

export interface OrderItemsProps {
  items: readonly OrderItemSchema[];
  currency: string;
  /** The badge of a prorated line, in the reader's words. */
  prorationLabel: string;
  /** Prices the lines may bill (the product's): a metered price's line says its meter and units. */
  prices?: readonly ProductPrice[];
  /** Where a meter's page is (the dashboard); its name is plain text without it. */
  meterPath?(meterId: string): string;
  className?: string;
}

/** The lines of an order, each with its amount and tax; usage lines with their meter and units. */
export function OrderItems({ items, currency, prorationLabel, prices = [], meterPath, className }: OrderItemsProps) {
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
            cell: (item) => {
              const usage = meteredLine(item, prices);
              return (
                <>
                  {item.label}
                  {item.proration && (
                    <span className="ml-2">
                      <Badge tone="info">{prorationLabel}</Badge>
                    </span>
                  )}
                  {usage && (
                    <span className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-600">
                      <Badge tone="info">Usage</Badge>
                      <span>
                        Meter{' '}
                        {meterPath ? (
                          <TextLink to={meterPath(usage.meterId)}>{usage.meterName}</TextLink>
                        ) : (
                          usage.meterName
                        )}
                      </span>
                      {usage.units !== null && <span>· {formatUnits(usage.units)} units billed</span>}
                      <span>· {formatUnitPrice(usage.unitPrice, currency)} per unit</span>
                      {usage.capAmount !== null && <span>· capped at {formatMoney(usage.capAmount, currency)}</span>}
                    </span>
                  )}
                </>
              );
            },
          },
          { header: 'Amount', align: 'right', cell: (item) => formatMoney(item.amount, currency) },
          { header: 'Tax', align: 'right', cell: (item) => formatMoney(item.tax_amount, currency) },
        ]}
      />
    </section>
  );
}
