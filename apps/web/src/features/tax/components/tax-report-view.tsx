import type { TaxReportRow } from '@tessera/sdk';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Card } from '../../../components/ui/card';
import { Select } from '../../../components/ui/select';
import { DataTable } from '../../../components/ui/table';
import { formatBasisPoints, formatMoney } from '../../../lib/format';
import { taxReportCsvUrl, useTaxReport } from '../api/get-tax-report';
import { jurisdictionLabel, monthPeriod, quarterPeriod, type ReportPeriod } from '../logic/periods';

const PERIODS: { value: string; label: string; period(now: Date): ReportPeriod }[] = [
  { value: 'month', label: 'This month', period: (now) => monthPeriod(now, 0) },
  { value: 'last-month', label: 'Last month', period: (now) => monthPeriod(now, -1) },
  { value: 'quarter', label: 'This quarter', period: (now) => quarterPeriod(now, 0) },
  { value: 'last-quarter', label: 'Last quarter', period: (now) => quarterPeriod(now, -1) },
];

/** Taxable sales, tax collected and refunded per jurisdiction for a period, with its CSV export. */
export function TaxReportView({ organizationId }: { organizationId: string }) {
  const [choice, setChoice] = useState('last-month');
  const period = (PERIODS.find((entry) => entry.value === choice) ?? PERIODS[1]!).period(new Date());
  const report = useTaxReport({ organization_id: organizationId, ...period });
  const rows = (report.data?.rows ?? []).map((row, index) => ({ ...row, id: String(index) }));
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-48">
          <Select aria-label="Period" value={choice} options={PERIODS} onValueChange={setChoice} />
        </div>
        <p className="text-sm text-slate-600">
          {period.start_date} to {period.end_date} (UTC)
        </p>
        <a
          className="ml-auto text-sm font-medium text-blue-700 underline"
          href={taxReportCsvUrl({ organization_id: organizationId, ...period })}
          download
        >
          Download CSV
        </a>
      </div>
      {report.isError && <Alert tone="error" title="The report could not be loaded." />}
      {rows.length === 0 ? (
        <Card>
          <p className="text-sm text-slate-600">No taxed sales in this period.</p>
        </Card>
      ) : (
        <DataTable<TaxReportRow & { id: string }>
          label="Tax report"
          rows={rows}
          columns={[
            { header: 'Jurisdiction', cell: (row) => jurisdictionLabel(row.country, row.state) },
            {
              header: 'Tax',
              cell: (row) =>
                row.reverse_charge
                  ? 'Reverse charge'
                  : row.label
                    ? `${row.label} ${formatBasisPoints(row.rate_basis_points)}`
                    : 'Not collected',
            },
            { header: 'Orders', align: 'right', cell: (row) => row.order_count },
            { header: 'Taxable sales', align: 'right', cell: (row) => formatMoney(row.taxable_amount, row.currency) },
            { header: 'Tax collected', align: 'right', cell: (row) => formatMoney(row.tax_amount, row.currency) },
            { header: 'Sales refunded', align: 'right', cell: (row) => formatMoney(row.refunded_amount, row.currency) },
            {
              header: 'Tax refunded',
              align: 'right',
              cell: (row) => formatMoney(row.refunded_tax_amount, row.currency),
            },
          ]}
        />
      )}
    </div>
  );
}
