import type { PaymentMethodCard, PaymentMethodGeneric } from '@tessera/sdk';
import { brandName, type CardBrand } from '../../../lib/payments/card';

export type SavedPaymentMethod = PaymentMethodCard | PaymentMethodGeneric;

function isCard(method: SavedPaymentMethod): method is PaymentMethodCard {
  return method.type === 'card' && 'card' in method && Boolean(method.card);
}

/** "Visa ending in 4242", or the method's type when its details are not known. */
export function paymentMethodLabel(method: SavedPaymentMethod): string {
  if (!isCard(method)) return method.type === 'card' ? 'Card' : method.type.replaceAll('_', ' ');
  const brand = brandName(method.card.brand as CardBrand) || method.card.brand;
  const wallet = method.card.wallet ? ` (${method.card.wallet.replaceAll('_', ' ')})` : '';
  return `${brand} ending in ${method.card.last4}${wallet}`;
}

/** "Expires 12/2034"; "Expired 01/2025" once past its month; null without card details. */
export function paymentMethodExpiry(method: SavedPaymentMethod, now: Date): string | null {
  if (!isCard(method)) return null;
  const { exp_month: month, exp_year: year } = method.card;
  const text = `${String(month).padStart(2, '0')}/${year}`;
  const expired = year * 12 + month - 1 < now.getFullYear() * 12 + now.getMonth();
  return expired ? `Expired ${text}` : `Expires ${text}`;
}

/** The default first, then newest first (as the API lists them). */
export function sortedPaymentMethods(methods: readonly SavedPaymentMethod[]): SavedPaymentMethod[] {
  return [...methods].sort((a, b) => Number(b.default) - Number(a.default));
}

/**
 * A card that redirected to the bank comes back to the page with `payment_method_id` in its address:
 * the page finishes saving it. Null when the address carries none.
 */
export function returningPaymentMethodId(search: string): string | null {
  const id = new URLSearchParams(search).get('payment_method_id');
  return id && /^[0-9a-f-]{36}$/i.test(id) ? id : null;
}
