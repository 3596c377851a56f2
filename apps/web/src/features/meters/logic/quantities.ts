import type { TimeInterval } from '@tessera/sdk';

/** The widest range, in days, the API accepts for each interval (meters.schemas.ts MAX_INTERVAL_DAYS). */
export const MAX_INTERVAL_DAYS: Record<TimeInterval, number> = {
  hour: 7,
  day: 366,
  week: 365,
  month: 1460,
  year: 3650,
};

export const INTERVALS: readonly { value: TimeInterval; label: string }[] = [
  { value: 'hour', label: 'Hourly' },
  { value: 'day', label: 'Daily' },
  { value: 'week', label: 'Weekly' },
  { value: 'month', label: 'Monthly' },
  { value: 'year', label: 'Yearly' },
];

/** The range each interval opens with, in days back from today (today included). */
const DEFAULT_DAYS: Record<TimeInterval, number> = { hour: 2, day: 30, week: 84, month: 365, year: 1460 };

const DAY_MS = 86_400_000;

/** A calendar day as `YYYY-MM-DD` (the value of a date input), in UTC as the API buckets. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export interface DayRange {
  /** First day, `YYYY-MM-DD`. */
  start: string;
  /** Last day, `YYYY-MM-DD`, included. */
  end: string;
}

/** The earliest day the API charts. */
const EARLIEST_DAY = '2023-01-01';

/** The default range of an interval, ending today (never before the earliest day the API charts). */
export function defaultRange(interval: TimeInterval, today: Date): DayRange {
  const start = isoDay(new Date(today.getTime() - (DEFAULT_DAYS[interval] - 1) * DAY_MS));
  return { start: start < EARLIEST_DAY ? EARLIEST_DAY : start, end: isoDay(today) };
}

/**
 * The query's timestamps for a range of whole UTC days, or the problem with the range in words. The end
 * is the last millisecond of the last day, so that day's events count.
 */
export function rangeTimestamps(
  range: DayRange,
  interval: TimeInterval,
): { start_timestamp: string; end_timestamp: string } | { problem: string } {
  const start = Date.parse(`${range.start}T00:00:00.000Z`);
  const end = Date.parse(`${range.end}T23:59:59.999Z`);
  if (Number.isNaN(start) || Number.isNaN(end)) return { problem: 'Choose a start and an end day.' };
  if (start < Date.parse(`${EARLIEST_DAY}T00:00:00Z`))
    return { problem: `The start day must be ${EARLIEST_DAY} or later.` };
  if (end < start) return { problem: 'The end day must not be before the start day.' };
  // The API's rule: whole days from start to end at most the limit, so the limit plus one calendar days.
  const days = Math.floor((end - start) / DAY_MS);
  if (days > MAX_INTERVAL_DAYS[interval])
    return {
      problem: `${interval === 'hour' ? 'An' : 'A'} ${INTERVALS.find((option) => option.value === interval)!.label.toLowerCase()} chart covers at most ${MAX_INTERVAL_DAYS[interval] + 1} days: choose a wider interval or a shorter range.`,
    };
  return { start_timestamp: new Date(start).toISOString(), end_timestamp: new Date(end).toISOString() };
}

/** A bucket's start as people read it on an axis, at the interval's precision (in UTC, as buckets are). */
export function bucketLabel(timestamp: string, interval: TimeInterval): string {
  const options: Intl.DateTimeFormatOptions = { timeZone: 'UTC' };
  if (interval === 'hour') Object.assign(options, { month: 'short', day: 'numeric', hour: 'numeric' });
  else if (interval === 'day' || interval === 'week') Object.assign(options, { month: 'short', day: 'numeric' });
  else if (interval === 'month') Object.assign(options, { month: 'short', year: 'numeric' });
  else Object.assign(options, { year: 'numeric' });
  return new Intl.DateTimeFormat(undefined, options).format(new Date(timestamp));
}
