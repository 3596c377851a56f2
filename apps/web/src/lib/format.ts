import { subdivisionName } from './subdivisions';

// Money is integers in minor units; formatting is the only place they become decimals.
export function formatMoney(amount: number, currency: string): string {
  const code = currency.toUpperCase();
  const digits = fractionDigits(code);
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: code }).format(amount / 10 ** digits);
  } catch {
    return `${toMajorUnits(amount, code)} ${code}`;
  }
}

function fractionDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    // Not an ISO 4217 code (the API will say so); assume cents meanwhile.
    return 2;
  }
}

/** 1250 minor units → "12.50", for editing an amount in a text field. */
export function toMajorUnits(amount: number, currency: string): string {
  const digits = fractionDigits(currency);
  const text = String(Math.abs(amount)).padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  return `${amount < 0 ? '-' : ''}${whole}${digits > 0 ? `.${text.slice(-digits)}` : ''}`;
}

/** Parses "12.50" into 1250 minor units without floating-point drift; null when not a valid amount. */
export function parseMoney(text: string, currency = 'usd'): number | null {
  const digits = fractionDigits(currency);
  const match = /^\s*(\d+)(?:[.,](\d*))?\s*$/.exec(text);
  if (!match) return null;
  const fraction = (match[2] ?? '').padEnd(digits, '0');
  if (fraction.length > digits) return null;
  return Number(match[1]) * 10 ** digits + Number(fraction || '0');
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(iso));
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** "12.5" (percent) → 1250 basis points; null when not a percentage with at most two decimals. */
export function parseBasisPoints(text: string): number | null {
  const match = /^\s*(\d+)(?:[.,](\d{0,2}))?\s*%?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

export function formatBasisPoints(basisPoints: number): string {
  return `${(basisPoints / 100).toLocaleString(undefined, { maximumFractionDigits: 2 })}%`;
}

/** "$25.00 / month": a subscription's amount per billing interval (`month`, `year`). */
export function formatMoneyPerInterval(amount: number, currency: string, interval: string): string {
  return `${formatMoney(amount, currency)} / ${interval}`;
}

/** "Jan 5": a calendar day, short, for chart axes. */
export function formatShortDay(date: Date): string {
  return new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' }).format(date);
}

function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(undefined, { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export interface PostalAddress {
  line1?: string | null;
  line2?: string | null;
  postal_code?: string | null;
  city?: string | null;
  state?: string | null;
  country: string;
}

/** An address as the lines of an envelope; the country by its name. */
export function formatAddressLines(address: PostalAddress): string[] {
  return [
    address.line1,
    address.line2,
    [address.postal_code, address.city].filter(Boolean).join(' '),
    address.state ? subdivisionName(address.state, address.country) : null,
    countryName(address.country),
  ].filter((line): line is string => Boolean(line));
}

/** A credit balance by currency ({"usd": 996}) as "$9.96" (several joined by " · "); null when there is none. */
export function formatCreditBalances(balances: Record<string, number>): string | null {
  const parts = Object.entries(balances)
    .filter(([, amount]) => amount > 0)
    .map(([currency, amount]) => formatMoney(amount, currency));
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** A quantity of metered units: whole numbers grouped, fractions to at most 2 decimals. */
export function formatUnits(value: number): string {
  return value.toLocaleString(undefined, { maximumFractionDigits: 2 });
}
