import type { OrderItemSchema, ProductPrice } from '@tessera/sdk';

/** What an order line billing a metered price says about its usage. */
export interface MeteredLine {
  meterId: string;
  meterName: string;
  /** Units billed (consumed less credited), as the line's label states them; null when it does not say. */
  units: number | null;
  /** The unit price in major units of the currency, as an exact decimal string ("0.0015"). */
  unitPrice: string;
  /** The cap on the line in minor units, if the price has one. */
  capAmount: number | null;
}

/**
 * The usage behind an order line, when it bills one of the metered prices given (the order's product's
 * prices), or null for any other line. Units come from the label, which billing writes as
 * `{meter} — ({units} consumed units) × ${unit price}`.
 */
export function meteredLine(item: OrderItemSchema, prices: readonly ProductPrice[]): MeteredLine | null {
  const price = prices.find((candidate) => candidate.id === item.product_price_id);
  if (!price || price.amount_type !== 'metered_unit') return null;
  return {
    meterId: price.meter_id,
    meterName: price.meter.name,
    units: unitsFromLabel(item.label),
    unitPrice: shiftDecimal(price.unit_amount, -currencyDigits(price.price_currency)),
    capAmount: price.cap_amount,
  };
}

/** "(1,234.5 consumed units)" → 1234.5; null when the label states no units. */
export function unitsFromLabel(label: string): number | null {
  const match = /\(\s*([\d.,\s]+?)\s+consumed units?\s*\)/i.exec(label);
  if (!match) return null;
  const units = Number(match[1]!.replace(/[,\s]/g, ''));
  return Number.isFinite(units) ? units : null;
}

/**
 * Moves a decimal string's point by `places` (negative: to the left) without floating point: a unit
 * price of "0.15" cents is "0.0015" dollars.
 */
export function shiftDecimal(value: string, places: number): string {
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(value.trim());
  if (!match) return value;
  const [, sign, whole = '', fraction = ''] = match;
  let digits = whole + fraction;
  let point = whole.length + places;
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits = digits.padEnd(point, '0');
  const integer = digits.slice(0, point).replace(/^0+(?=\d)/, '') || '0';
  const decimals = digits.slice(point).replace(/0+$/, '');
  return `${sign}${integer}${decimals ? `.${decimals}` : ''}`;
}

function currencyDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
}

/** A unit price in major units ("0.0015") with its currency: "$0.0015", keeping every decimal. */
export function formatUnitPrice(unitPrice: string, currency: string): string {
  const code = currency.toUpperCase();
  try {
    return new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency: code,
      minimumFractionDigits: currencyDigits(code),
      maximumFractionDigits: 14,
      // An exact decimal string: formatted digit for digit, never through a float.
    }).format(unitPrice as Intl.StringNumericLiteral);
  } catch {
    return `${unitPrice} ${code}`;
  }
}
