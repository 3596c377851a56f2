import type { Payment, PaymentStatus } from '@tessera/sdk';

type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

export const PAYMENT_STATUS: Record<PaymentStatus, { label: string; tone: Tone }> = {
  pending: { label: 'Pending', tone: 'warning' },
  succeeded: { label: 'Succeeded', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
};

export const STATUS_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'succeeded', label: 'Succeeded' },
  { value: 'failed', label: 'Failed' },
  { value: 'pending', label: 'Pending' },
];

export const METHOD_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'card', label: 'Card' },
];

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Visa •••• 4242" for a card, the method's name otherwise. */
export function describeMethod(payment: Payment): string {
  if (payment.method === 'card' && 'method_metadata' in payment) {
    const { brand, last4 } = payment.method_metadata;
    const name = brand === 'unknown' ? 'Card' : capitalize(brand);
    return last4 ? `${name} •••• ${last4}` : name;
  }
  return capitalize(payment.method.replace(/_/g, ' '));
}

/** The processor's message when it gave one, else its code in words ("insufficient funds"). */
export function describeDecline(payment: Payment): string | null {
  if (payment.decline_message) return payment.decline_message;
  if (payment.decline_reason) return capitalize(payment.decline_reason.replace(/_/g, ' '));
  return null;
}
