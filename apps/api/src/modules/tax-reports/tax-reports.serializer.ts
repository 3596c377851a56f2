import type { TaxReportWire } from './tax-reports.schemas.js';

const CSV_COLUMNS = [
  'country',
  'state',
  'label',
  'rate_basis_points',
  'reverse_charge',
  'currency',
  'order_count',
  'taxable_amount',
  'tax_amount',
  'refunded_amount',
  'refunded_tax_amount',
] as const;

/** A CSV field: quoted when it holds a comma, quote or line break; a leading formula sign is neutralised. */
function field(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The report as CSV (RFC 4180, CRLF): one header line, then one line per row; amounts in minor units. */
export function taxReportCsv(report: TaxReportWire): string {
  const lines = [
    ['start_date', 'end_date', ...CSV_COLUMNS].join(','),
    ...report.rows.map((row) =>
      [report.start_date, report.end_date, ...CSV_COLUMNS.map((column) => row[column])].map(field).join(','),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
