/**
 * CSV as spreadsheets read it (RFC 4180): comma-separated, CRLF line ends, a field quoted when it holds
 * a comma, a quote or a line break, quotes doubled. Text that a spreadsheet would run as a formula
 * (starting with =, +, -, @, tab or carriage return) is prefixed with an apostrophe: an export holds what
 * customers typed (names, addresses), and opening it must not run their formulas. Numbers are written
 * as they are (a negative amount stays a number).
 */
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
/** A negative decimal such as "-12.50" (an amount) is a number, not a formula. */
const NUMBER = /^-\d+(\.\d+)?$/;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text) && !NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** One column of an export: its header and the value of each row. */
export interface CsvColumn<T> {
  header: string;
  value(row: T): CsvValue;
}

export function rowsToCsv<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  return toCsv(
    columns.map((column) => column.header),
    rows.map((row) => columns.map((column) => column.value(row))),
  );
}
