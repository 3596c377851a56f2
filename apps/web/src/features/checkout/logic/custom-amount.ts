import type { ProductPriceCustom } from '@tessera/sdk';
import { formatMoney, parseMoney } from '../../../lib/format';

/** The smallest chargeable amount in minor units; a pay-what-you-want price may also allow exactly 0. */
export const MINIMUM_CHARGE = 50;
/** The largest amount a checkout takes (999,999.99 in a two-decimal currency). */
export const MAXIMUM_CHARGE = 99_999_999;

export interface CustomAmountBounds {
  currency: string;
  /** Minor units; 0 means "free, or pay what you want". */
  minimum: number;
  maximum: number | null;
  preset: number | null;
}

/** The bounds of a pay-what-you-want price, as the API checks them (minimum 0.50 unless set). */
export function customAmountBounds(price: ProductPriceCustom): CustomAmountBounds {
  return {
    currency: price.price_currency,
    minimum: price.minimum_amount ?? MINIMUM_CHARGE,
    maximum: price.maximum_amount,
    preset: price.preset_amount,
  };
}

/** "Minimum $5.00, maximum $100.00." for the hint under the amount. */
export function describeBounds(bounds: CustomAmountBounds): string {
  const parts = [bounds.minimum > 0 ? `Minimum ${formatMoney(bounds.minimum, bounds.currency)}` : 'Any amount'];
  if (bounds.maximum !== null) parts.push(`maximum ${formatMoney(bounds.maximum, bounds.currency)}`);
  return `${parts.join(', ')}.`;
}

export type CustomAmountResult = { ok: true; amount: number } | { ok: false; error: string };

/** Parses the typed amount into minor units and checks it against the price's bounds. */
export function parseCustomAmount(text: string, bounds: CustomAmountBounds): CustomAmountResult {
  const money = (amount: number) => formatMoney(amount, bounds.currency);
  if (text.trim() === '') return { ok: false, error: 'Enter an amount.' };
  const amount = parseMoney(text, bounds.currency);
  if (amount === null) return { ok: false, error: 'Enter an amount such as 12.50.' };
  if (amount < bounds.minimum) return { ok: false, error: `Enter at least ${money(bounds.minimum)}.` };
  if (amount > 0 && amount < MINIMUM_CHARGE)
    return { ok: false, error: `Enter 0 or at least ${money(MINIMUM_CHARGE)}: smaller payments cannot be charged.` };
  const maximum = Math.min(bounds.maximum ?? MAXIMUM_CHARGE, MAXIMUM_CHARGE);
  if (amount > maximum) return { ok: false, error: `Enter at most ${money(maximum)}.` };
  return { ok: true, amount };
}
