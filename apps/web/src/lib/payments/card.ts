/**
 * The card form of the simulated processor: formatting as people type, and the checks a card form
 * makes before anything is sent (Luhn, brand lengths, expiry, security code). The API checks the same
 * again when it turns the card into a confirmation token (apps/api/src/platform/payments/cards.ts).
 */

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay' | 'unknown';

interface BrandRule {
  brand: Exclude<CardBrand, 'unknown'>;
  /** Inclusive ranges `[digits, from, to]` compared on the first `digits` digits of the number. */
  ranges: [number, number, number][];
  lengths: number[];
}

// Issuer identification ranges; the order matters where ranges overlap (Discover's 622126–622925 in UnionPay's 62).
const BRAND_RULES: BrandRule[] = [
  {
    brand: 'amex',
    ranges: [
      [2, 34, 34],
      [2, 37, 37],
    ],
    lengths: [15],
  },
  { brand: 'visa', ranges: [[1, 4, 4]], lengths: [13, 16, 19] },
  {
    brand: 'mastercard',
    ranges: [
      [2, 51, 55],
      [4, 2221, 2720],
    ],
    lengths: [16],
  },
  {
    brand: 'discover',
    ranges: [
      [4, 6011, 6011],
      [3, 644, 649],
      [2, 65, 65],
      [6, 622126, 622925],
    ],
    lengths: [16, 17, 18, 19],
  },
  { brand: 'jcb', ranges: [[4, 3528, 3589]], lengths: [16, 17, 18, 19] },
  {
    brand: 'diners',
    ranges: [
      [3, 300, 305],
      [2, 36, 36],
      [2, 38, 39],
    ],
    lengths: [14, 15, 16, 17, 18, 19],
  },
  {
    brand: 'unionpay',
    ranges: [
      [2, 62, 62],
      [2, 81, 81],
    ],
    lengths: [16, 17, 18, 19],
  },
];

const BRAND_NAMES: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  unknown: '',
};

const MAX_DIGITS = 19;

/** The digits of what was typed (spaces, dashes and anything else dropped). */
export function cardDigits(input: string): string {
  return input.replace(/\D/g, '');
}

export function detectCardBrand(digits: string): CardBrand {
  const rule = BRAND_RULES.find(({ ranges }) =>
    ranges.some(([length, from, to]) => {
      if (digits.length < length) return false;
      const head = Number(digits.slice(0, length));
      return head >= from && head <= to;
    }),
  );
  return rule?.brand ?? 'unknown';
}

export function brandName(brand: CardBrand): string {
  return BRAND_NAMES[brand];
}

function validLength(brand: CardBrand, length: number): boolean {
  const rule = BRAND_RULES.find((candidate) => candidate.brand === brand);
  return rule ? rule.lengths.includes(length) : length >= 12 && length <= MAX_DIGITS;
}

/** The Luhn (mod 10) checksum every card number carries in its last digit. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{2,}$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index--) {
    let digit = digits.charCodeAt(index) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Groups as printed on the card: 4-6-5 for American Express, groups of four otherwise. */
export function formatCardNumber(input: string): string {
  const digits = cardDigits(input).slice(0, MAX_DIGITS);
  const groups = detectCardBrand(digits) === 'amex' ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const parts: string[] = [];
  let start = 0;
  for (const size of groups) {
    if (start >= digits.length) break;
    parts.push(digits.slice(start, start + size));
    start += size;
  }
  return parts.join(' ');
}

/**
 * "MM / YY" as people type it: a first digit above 1 is a month on its own ("4" → "04"). The separator
 * appears only once a year digit follows, so deleting backwards never gets stuck on it.
 */
export function formatExpiry(input: string): string {
  // A pasted "12/2030" keeps its month and the last two digits of its year.
  const full = /^\s*(\d{1,2})\s*\/\s*\d{2}(\d{2})\s*$/.exec(input);
  if (full) return `${full[1]!.padStart(2, '0')} / ${full[2]}`;
  let digits = cardDigits(input);
  if (/^[2-9]/.test(digits)) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  return digits.length <= 2 ? digits : `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

export interface Expiry {
  month: number;
  /** Four digits. */
  year: number;
}

/** "MM / YY" or "MM / YYYY" → month and four-digit year; null when it is not that shape. */
export function parseExpiry(text: string): Expiry | null {
  const match = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!match) return null;
  const month = Number(match[1]);
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  return { month, year };
}

export interface CardEntry {
  number: string;
  expiry: string;
  cvc: string;
}

export interface CardErrors {
  number?: string;
  expiry?: string;
  cvc?: string;
}

/** Every problem of the card, in words; a card is valid through the last day of its expiry month. */
export function validateCard(card: CardEntry, now: Date): CardErrors {
  const errors: CardErrors = {};
  const digits = cardDigits(card.number);
  const brand = detectCardBrand(digits);
  if (digits.length === 0) errors.number = 'Enter your card number.';
  else if (!luhnValid(digits) || !validLength(brand, digits.length)) errors.number = 'Your card number is invalid.';

  const expiry = parseExpiry(card.expiry);
  if (card.expiry.trim() === '') errors.expiry = 'Enter the expiry date.';
  else if (!expiry || expiry.month < 1 || expiry.month > 12) errors.expiry = 'Enter the expiry date as MM / YY.';
  else if (expiry.year * 12 + expiry.month - 1 < now.getFullYear() * 12 + now.getMonth())
    errors.expiry = 'Your card has expired.';

  const cvcLength = brand === 'amex' ? 4 : 3;
  if (card.cvc.trim() === '') errors.cvc = 'Enter the security code.';
  else if (!new RegExp(`^\\d{${cvcLength}}$`).test(card.cvc.trim()))
    errors.cvc = `The security code is ${cvcLength} digits.`;
  return errors;
}

/** The body of `POST /simulated-processor/confirmation-tokens` for a card that passed `validateCard`. */
export function confirmationTokenBody(card: CardEntry): {
  card: { number: string; exp_month: number; exp_year: number; cvc: string };
} {
  const expiry = parseExpiry(card.expiry);
  if (!expiry) throw new Error('The expiry date was not checked before sending the card.');
  return {
    card: { number: cardDigits(card.number), exp_month: expiry.month, exp_year: expiry.year, cvc: card.cvc.trim() },
  };
}
