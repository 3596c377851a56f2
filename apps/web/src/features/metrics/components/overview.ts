/** The overview's rules, pure: ranges, the previous period, changes, labels and the CSV export. */

export type Interval = 'hour' | 'day' | 'week' | 'month' | 'year';

export interface DateRange {
  /** YYYY-MM-DD, both days included. */
  start: string;
  end: string;
}

export const PRESETS = [
  { value: '7d', label: 'Last 7 days', days: 7, interval: 'day' },
  { value: '30d', label: 'Last 30 days', days: 30, interval: 'day' },
  { value: '90d', label: 'Last 90 days', days: 90, interval: 'week' },
  { value: '12m', label: 'Last 12 months', days: 365, interval: 'month' },
] as const satisfies readonly { value: string; label: string; days: number; interval: Interval }[];

export type Preset = (typeof PRESETS)[number]['value'];

const DAY = 86_400_000;

/** A calendar day as YYYY-MM-DD, read in `timeZone`. */
export function dayIn(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    .formatToParts(instant)
    .reduce<Record<string, string>>((all, part) => ({ ...all, [part.type]: part.value }), {});
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** `day` moved by `days` calendar days. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

/** Days from `start` to `end` (0 for the same day). */
export function daysBetween(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY);
}

/** The `days` days ending `today`. */
export function presetRange(days: number, today: string): DateRange {
  return { start: addDays(today, -(days - 1)), end: today };
}

/** The range of the same length just before `range`: what the headline changes compare with. */
export function previousRange(range: DateRange): DateRange {
  const length = daysBetween(range.start, range.end) + 1;
  return { start: addDays(range.start, -length), end: addDays(range.start, -1) };
}

/** The change from `previous` to `current` as a fraction (0.25 is +25 %); null when there was nothing before. */
export function change(current: number, previous: number): number | null {
  if (previous === 0) return current === 0 ? 0 : null;
  return (current - previous) / Math.abs(previous);
}

/** "+25%", "−10%", "0%"; "new" when there was nothing to compare with. */
export function formatChange(value: number | null): string {
  if (value === null) return 'new';
  const percent = Math.round(value * 1000) / 10;
  if (percent === 0) return '0%';
  return `${percent > 0 ? '+' : '−'}${Math.abs(percent).toLocaleString('en-US')}%`;
}

/** A period's label on a chart axis, by interval, in `timeZone`. */
export function periodLabel(timestamp: string, interval: Interval, timeZone: string): string {
  const date = new Date(timestamp);
  const format = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-US', { timeZone, ...options }).format(date);
  switch (interval) {
    case 'hour':
      return format({ month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    case 'day':
      return format({ month: 'short', day: 'numeric' });
    case 'week':
      return `Week of ${format({ month: 'short', day: 'numeric' })}`;
    case 'month':
      return format({ month: 'short', year: 'numeric' });
    case 'year':
      return format({ year: 'numeric' });
  }
}

/** The periods as CSV: a `timestamp` column then one column per metric, in the API's units. */
export function periodsCsv(periods: readonly Record<string, unknown>[], slugs: readonly string[]): string {
  const cell = (value: unknown) => {
    const text = String(value ?? '');
    return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const lines = [['timestamp', ...slugs].join(',')];
  for (const period of periods)
    lines.push([period.timestamp, ...slugs.map((slug) => period[slug])].map(cell).join(','));
  return `${lines.join('\n')}\n`;
}
