import { Readable } from 'node:stream';

/**
 * CSV as the reference writes it (Python's `csv` "excel" dialect): a cell is quoted only when it holds
 * a comma, a quote or a line break, quotes doubled; lines end with CRLF; a missing value is empty.
 */
export type CsvValue = string | number | boolean | null | undefined;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly CsvValue[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * Minor units in major units as the reference prints `amount / 100` (a Python float): `12.34`, `12.5`,
 * `12.0`, computed on integers (never a float).
 */
export function majorUnits(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(amount);
  const cents = abs % 100;
  const fraction = cents === 0 ? '0' : String(cents).padStart(2, '0').replace(/0$/, '');
  return `${sign}${Math.floor(abs / 100)}.${fraction}`;
}

/**
 * An instant as the reference's `isoformat()` of a UTC datetime: seconds, microseconds only when there
 * are any, and `+00:00`.
 */
export function isoformat(value: Date | null | undefined): string | null {
  if (!value) return null;
  const text = value.toISOString();
  const millis = text.slice(20, 23);
  return `${text.slice(0, 19)}${millis === '000' ? '' : `.${millis}000`}+00:00`;
}

/**
 * A value as the reference's `json.dumps` writes it (", " and ": " between items, non-ASCII as \u
 * escapes): the metadata column of the customers export.
 */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, item]) => `${pythonJson(key)}: ${pythonJson(item)}`)
      .join(', ')}}`;
  }
  return (JSON.stringify(value) ?? 'null').replace(
    /[\u0080-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The keyset of an export's rows: the row's instant as PostgreSQL prints it (to the microsecond) and its id. */
export interface ExportCursor {
  cursor_at: string;
  id: string;
}

/** Rows are read in batches of this many, each batch by its own statement (keyset, see csvStream). */
export const CSV_BATCH = 500;

/**
 * A CSV body streamed as it is read: the header first, then each batch `next` reads after the last row
 * of the one before (keyset pagination), so no connection is held while the client reads and the whole
 * export is never in memory. `next(undefined)` reads the first batch; a batch shorter than CSV_BATCH is
 * the last.
 */
export function csvStream<R>(
  header: readonly string[],
  next: (after: R | undefined) => Promise<R[]>,
  row: (item: R) => readonly CsvValue[],
): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield csvLine(header);
    let after: R | undefined;
    for (;;) {
      const batch = await next(after);
      if (batch.length > 0) yield batch.map((item) => csvLine(row(item))).join('');
      if (batch.length < CSV_BATCH) return;
      after = batch[batch.length - 1];
    }
  }
  return Readable.from(lines(), { objectMode: false });
}

/** Whether a request's Accept header asks for CSV (SDK 0.49 sends `text/csv`; older clients JSON). */
export function acceptsCsv(accept: string | undefined): boolean {
  return accept !== undefined && /(^|,)\s*text\/csv\b/i.test(accept);
}
