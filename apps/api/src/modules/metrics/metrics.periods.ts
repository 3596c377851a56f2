import { MAX_INTERVAL_DAYS } from '../meters/meters.schemas.js';

/**
 * Periods of a metrics answer, as pure functions (docs/metrics.md): the range is
 * [start_date 00:00, end_date + 1 day 00:00) in the time zone, cut at the interval's local boundaries
 * (the hour, local midnight, Monday, the 1st of the month, the 1st of January). The first period starts at
 * start_date even when that is not a boundary; the last ends at the range's end.
 */
export const INTERVALS = ['hour', 'day', 'week', 'month', 'year'] as const;
export type TimeInterval = (typeof INTERVALS)[number];

export const MIN_DATE = '2023-01-01';
/** The largest `end_date − start_date`, in days, per interval (the reference's values). */
export const MAX_DAYS: Record<TimeInterval, number> = MAX_INTERVAL_DAYS;
/**
 * The shortest range, in days, a chart of the interval is meaningful for (the reference's values, shown
 * by `GET /v1/metrics/limits` as `min_days`): advice for clients drawing charts, not a bound the
 * metrics answer enforces.
 */
export const MIN_DAYS: Record<TimeInterval, number> = { hour: 0, day: 0, week: 14, month: 60, year: 366 };

export interface Period {
  /** The period's first instant. */
  start: Date;
  /** The instant after its last (the next period's start). */
  end: Date;
}

const DAY_MS = 86_400_000;

/** Whole days from `start` to `end` (both `YYYY-MM-DD`). */
export function daysBetween(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS);
}

/** True when `zone` is an IANA time zone name this runtime knows. */
export function isTimeZone(zone: string): boolean {
  // Names only: an offset such as "+05:00" means the opposite sign to PostgreSQL (POSIX).
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** One formatter per zone: building one costs far more than formatting (a year by day asks ~2,000 times). */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    // Bounded: only names isTimeZone accepted reach here, and the runtime knows a few hundred.
    if (formatters.size < 1_000) formatters.set(zone, formatter);
  }
  return formatter;
}

/** The offset of `zone` from UTC at `instant`, in milliseconds (local = UTC + offset). */
function offsetAt(zone: string, instant: number): number {
  if (zone === 'UTC') return 0;
  const parts = formatterOf(zone).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return local - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant at which the wall clock of `zone` shows `local` (a UTC-coded wall time). A wall time
 * skipped by a DST change resolves to the instant after the gap, as PostgreSQL's `AT TIME ZONE` does.
 */
export function zonedInstant(zone: string, local: number): Date {
  let guess = local - offsetAt(zone, local);
  guess = local - offsetAt(zone, guess);
  if (guess + offsetAt(zone, guess) !== local) {
    // In a gap: PostgreSQL reads the wall time with the offset before the change.
    guess = local - offsetAt(zone, guess - 3_600_000);
  }
  return new Date(guess);
}

/** The next local boundary after the wall time `local` (UTC-coded) for day-sized intervals. */
function nextBoundary(interval: Exclude<TimeInterval, 'hour'>, local: number): number {
  const date = new Date(local);
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth();
  const d = date.getUTCDate();
  switch (interval) {
    case 'day':
      return Date.UTC(y, m, d + 1);
    case 'week': {
      const weekday = (date.getUTCDay() + 6) % 7; // Monday 0
      return Date.UTC(y, m, d + 7 - weekday);
    }
    case 'month':
      return Date.UTC(y, m + 1, 1);
    case 'year':
      return Date.UTC(y + 1, 0, 1);
  }
}

/** The periods of [start_date, end_date] by `interval` in `zone`. */
export function periodsOf(startDate: string, endDate: string, interval: TimeInterval, zone = 'UTC'): Period[] {
  const localStart = Date.parse(`${startDate}T00:00:00Z`);
  const localEnd = Date.parse(`${endDate}T00:00:00Z`) + DAY_MS;
  const rangeStart = zonedInstant(zone, localStart).getTime();
  const rangeEnd = zonedInstant(zone, localEnd).getTime();
  const periods: Period[] = [];
  if (interval === 'hour') {
    // Hours are counted in elapsed time from local midnight: a DST day has 23 or 25 of them.
    for (let at = rangeStart; at < rangeEnd; at += 3_600_000) {
      periods.push({ start: new Date(at), end: new Date(Math.min(at + 3_600_000, rangeEnd)) });
    }
    return periods;
  }
  let start = new Date(rangeStart);
  for (let local = localStart; local < localEnd;) {
    const next = Math.min(nextBoundary(interval, local), localEnd);
    const end = next === localEnd ? new Date(rangeEnd) : zonedInstant(zone, next);
    periods.push({ start, end });
    start = end;
    local = next;
  }
  return periods;
}
