/** A report period as the API takes it: UTC days, both included. */
export interface ReportPeriod {
  start_date: string;
  end_date: string;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/** The calendar month (UTC) `offset` months from the one `now` is in: 0 this month, -1 the previous. */
export function monthPeriod(now: Date, offset: number): ReportPeriod {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset + 1, 0));
  return { start_date: day(start), end_date: day(end) };
}

/** The calendar quarter (UTC) `offset` quarters from the one `now` is in. */
export function quarterPeriod(now: Date, offset: number): ReportPeriod {
  const first = Math.floor(now.getUTCMonth() / 3) * 3 + offset * 3;
  const start = new Date(Date.UTC(now.getUTCFullYear(), first, 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), first + 3, 0));
  return { start_date: day(start), end_date: day(end) };
}

/** "US-CA" → "US · CA"; a country alone as it is. */
export function jurisdictionLabel(country: string, state: string | null): string {
  return state ? `${country} · ${state.replace(/^[A-Z]{2}-/, '')}` : country;
}
