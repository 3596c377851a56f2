import type { ProductCreate, ProductPrice } from '@tessera/sdk';
import { formatMoney, parseMoney } from '../../../lib/format';

export type NewPrice = ProductCreate['prices'][number];
export type AmountType = NewPrice['amount_type'];

/** One price row of the form, as typed (amounts as text in major units). */
export interface PriceDraft {
  key: string;
  amountType: AmountType;
  currency: string;
  amount: string;
  minimum: string;
  maximum: string;
  preset: string;
  meterId: string;
  unitAmount: string;
  cap: string;
}

export const AMOUNT_TYPES: { value: AmountType; label: string }[] = [
  { value: 'fixed', label: 'Fixed price' },
  { value: 'custom', label: 'Pay what you want' },
  { value: 'free', label: 'Free' },
  { value: 'metered_unit', label: 'Metered (per unit)' },
];

export function emptyPrice(key: string): PriceDraft {
  return {
    key,
    amountType: 'fixed',
    currency: 'usd',
    amount: '',
    minimum: '',
    maximum: '',
    preset: '',
    meterId: '',
    unitAmount: '',
    cap: '',
  };
}

/**
 * The wire price of a draft, or the problems keyed like the API's 422 fields (`prices.0.price_amount`)
 * so both show in the same place.
 */
export function toNewPrice(draft: PriceDraft, index: number): { price?: NewPrice; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const at = (field: string) => `prices.${index}.${field}`;
  const money = (text: string, field: string, required: boolean): number | null | undefined => {
    if (text.trim() === '') {
      if (required) errors[at(field)] = 'Enter an amount.';
      return null;
    }
    const value = parseMoney(text, draft.currency);
    if (value === null) errors[at(field)] = 'Enter an amount such as 12 or 12.50.';
    return value;
  };
  const currency = draft.currency.trim().toLowerCase();
  switch (draft.amountType) {
    case 'free':
      return { price: { amount_type: 'free' }, errors };
    case 'fixed': {
      const amount = money(draft.amount, 'price_amount', true);
      if (Object.keys(errors).length > 0 || amount == null) return { errors };
      return { price: { amount_type: 'fixed', price_amount: amount, price_currency: currency }, errors };
    }
    case 'custom': {
      const minimum = money(draft.minimum, 'minimum_amount', false);
      const maximum = money(draft.maximum, 'maximum_amount', false);
      const preset = money(draft.preset, 'preset_amount', false);
      if (Object.keys(errors).length > 0) return { errors };
      return {
        price: {
          amount_type: 'custom',
          price_currency: currency,
          minimum_amount: minimum ?? null,
          maximum_amount: maximum ?? null,
          preset_amount: preset ?? null,
        },
        errors,
      };
    }
    case 'metered_unit': {
      if (draft.meterId.trim() === '') errors[at('meter_id')] = 'Enter the meter ID.';
      if (!/^\d+(\.\d+)?$/.test(draft.unitAmount.trim()))
        errors[at('unit_amount')] = 'Enter the price per unit in cents, e.g. 0.5.';
      const cap = money(draft.cap, 'cap_amount', false);
      if (Object.keys(errors).length > 0) return { errors };
      return {
        price: {
          amount_type: 'metered_unit',
          meter_id: draft.meterId.trim(),
          unit_amount: draft.unitAmount.trim(),
          price_currency: currency,
          cap_amount: cap ?? null,
        },
        errors,
      };
    }
  }
}

/** A price in words: "$12.00", "Pay what you want (from $5.00)", "Free", "0.5¢ per unit". */
export function describePrice(price: ProductPrice): string {
  switch (price.amount_type) {
    case 'fixed':
      return formatMoney(price.price_amount, price.price_currency);
    case 'custom':
      return price.minimum_amount
        ? `Pay what you want (from ${formatMoney(price.minimum_amount, price.price_currency)})`
        : 'Pay what you want';
    case 'free':
      return 'Free';
    case 'metered_unit':
      return `${price.unit_amount}¢ ${price.price_currency.toUpperCase()} per unit`;
    default:
      return 'Price';
  }
}

export function describeInterval(interval: string | null | undefined): string {
  if (interval === 'month') return 'Monthly';
  if (interval === 'year') return 'Yearly';
  return 'One-time';
}
