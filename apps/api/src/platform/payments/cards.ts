/**
 * Card checks of the simulated processor: Luhn, brand from the issuer identification number (IIN)
 * ranges, expiry against the app clock, and the outcomes of Stripe's test cards.
 */

/** Digits only: spaces and dashes, as people type them, are dropped; anything else makes it invalid. */
export function normalizeCardNumber(input: string): string | null {
  const compact = input.replace(/[\s-]/g, '');
  return /^\d+$/.test(compact) ? compact : null;
}

/** The Luhn (mod 10) checksum every card number carries in its last digit. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{2,}$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = digits.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay' | 'unknown';

interface BrandRule {
  brand: Exclude<CardBrand, 'unknown'>;
  /** Inclusive prefix ranges, compared on the first `digits` digits. */
  ranges: [number, number, number][];
  lengths: number[];
}

const prefix = (digits: number, from: number, to = from): [number, number, number] => [digits, from, to];

/** Stripe's brand names; the order matters where ranges overlap (Discover's 622126–622925 inside UnionPay's 62). */
const BRAND_RULES: BrandRule[] = [
  { brand: 'amex', ranges: [prefix(2, 34), prefix(2, 37)], lengths: [15] },
  { brand: 'visa', ranges: [prefix(1, 4)], lengths: [13, 16, 19] },
  { brand: 'mastercard', ranges: [prefix(2, 51, 55), prefix(4, 2221, 2720)], lengths: [16] },
  {
    brand: 'discover',
    ranges: [prefix(4, 6011), prefix(3, 644, 649), prefix(2, 65), prefix(6, 622126, 622925)],
    lengths: [16, 17, 18, 19],
  },
  { brand: 'jcb', ranges: [prefix(4, 3528, 3589)], lengths: [16, 17, 18, 19] },
  {
    brand: 'diners',
    ranges: [prefix(3, 300, 305), prefix(2, 36), prefix(2, 38, 39)],
    lengths: [14, 15, 16, 17, 18, 19],
  },
  { brand: 'unionpay', ranges: [prefix(2, 62), prefix(2, 81)], lengths: [16, 17, 18, 19] },
];

/** The brand of a card number by its IIN; `unknown` when no known range matches. */
export function detectBrand(digits: string): CardBrand {
  for (const rule of BRAND_RULES) {
    const matches = rule.ranges.some(([length, from, to]) => {
      if (digits.length < length) return false;
      const head = Number(digits.slice(0, length));
      return head >= from && head <= to;
    });
    if (matches) return rule.brand;
  }
  return 'unknown';
}

/** Lengths a brand issues; unknown brands accept 12–19 digits. */
export function validLengthForBrand(brand: CardBrand, length: number): boolean {
  const rule = BRAND_RULES.find((candidate) => candidate.brand === brand);
  return rule ? rule.lengths.includes(length) : length >= 12 && length <= 19;
}

/** Two-digit years are this century's, as card forms print them. */
export function normalizeExpYear(year: number): number {
  return year < 100 ? 2000 + year : year;
}

/** A card is valid through the last day of its expiry month (UTC). */
export function isExpired(expMonth: number, expYear: number, now: Date): boolean {
  const year = normalizeExpYear(expYear);
  return year * 12 + (expMonth - 1) < now.getUTCFullYear() * 12 + now.getUTCMonth();
}

/**
 * What a simulated card does, as Stripe's test cards do in test mode:
 * - `succeed`: charges and setups succeed (4242 4242 4242 4242 and any other valid number);
 * - `card_declined`: every charge and setup is declined (4000 0000 0000 0002);
 * - `insufficient_funds`: declined for insufficient funds (4000 0000 0000 9995);
 * - `charge_declined_after_attach`: it can be saved (setup succeeds) but every charge fails
 *   (4000 0000 0000 0341);
 * - `authentication_required`: a charge on the checkout page waits for the buyer to authenticate (3-D
 *   Secure), then succeeds or fails by the buyer's answer; once saved, off-session charges need no
 *   authentication (4000 0025 0000 3155).
 */
export type SimulatedOutcome =
  'succeed' | 'card_declined' | 'insufficient_funds' | 'charge_declined_after_attach' | 'authentication_required';

const TEST_CARD_OUTCOMES: Record<string, SimulatedOutcome> = {
  '4000000000000002': 'card_declined',
  '4000000000009995': 'insufficient_funds',
  '4000000000000341': 'charge_declined_after_attach',
  '4000002500003155': 'authentication_required',
};

export function simulatedOutcome(digits: string): SimulatedOutcome {
  return TEST_CARD_OUTCOMES[digits] ?? 'succeed';
}

/** The decline codes and messages Stripe gives for these cards. */
export const DECLINES = {
  card_declined: { reason: 'card_declined', message: 'Your card was declined.' },
  insufficient_funds: { reason: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  expired_card: { reason: 'expired_card', message: 'Your card has expired.' },
  authentication_required: { reason: 'authentication_required', message: 'Your card requires authentication.' },
  authentication_failed: {
    reason: 'payment_intent_authentication_failure',
    message:
      'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
  },
} as const;
