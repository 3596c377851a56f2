import { formatMoney } from '../../lib/format';

export interface OrderTotalProps {
  order: {
    total_amount: number;
    refunded_amount: number;
    refunded_tax_amount: number;
    currency: string;
  };
}

/** An order's total in a list, with what was refunded of it (net and tax) under it when anything was. */
export function OrderTotal({ order }: OrderTotalProps) {
  const refunded = order.refunded_amount + order.refunded_tax_amount;
  return (
    <span className="inline-flex flex-col items-end">
      <span>{formatMoney(order.total_amount, order.currency)}</span>
      {refunded > 0 && (
        <span className="text-xs text-slate-600">−{formatMoney(refunded, order.currency)} refunded</span>
      )}
    </span>
  );
}
