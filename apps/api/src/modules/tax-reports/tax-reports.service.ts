import type { Context } from '../../platform/context.js';
import { readableOrganization } from '../tax-settings/tax-settings.service.js';
import { aggregateTaxReport } from './tax-reports.repository.js';
import type { TaxReportParams, TaxReportWire } from './tax-reports.schemas.js';

/** The report of [start_date, end_date] in UTC days (the end day included). */
export async function getTaxReport(ctx: Context, params: TaxReportParams): Promise<TaxReportWire> {
  const organization = await readableOrganization(ctx, params.organization_id);
  const from = new Date(`${params.start_date}T00:00:00Z`);
  const to = new Date(Date.parse(`${params.end_date}T00:00:00Z`) + 86_400_000);
  return {
    organization_id: organization.id,
    start_date: params.start_date,
    end_date: params.end_date,
    rows: await aggregateTaxReport(ctx.db, organization.id, from, to),
  };
}
