import { z } from 'zod/v4';
import { Id } from '../../platform/http/schemas.js';

/**
 * The tax report of a period, per jurisdiction: what a seller files a return from (docs/tax.md). A
 * Tessera extension at a path of its own.
 */
const extension = { 'x-tessera-extension': true } as const;

const day = z.iso.date({ message: 'Input should be a date (YYYY-MM-DD)' });

export const TaxReportQuery = z
  .object({
    organization_id: Id().optional().meta({ description: 'The organization (users only).' }),
    start_date: day.meta({ description: 'First day of the period (UTC), inclusive.' }),
    end_date: day.meta({ description: 'Last day of the period (UTC), inclusive.' }),
  })
  .refine((query) => query.start_date <= query.end_date, {
    message: 'end_date must not be before start_date.',
    path: ['end_date'],
  })
  .refine((query) => Date.parse(query.end_date) - Date.parse(query.start_date) <= 366 * 86_400_000, {
    message: 'A report covers at most 366 days.',
    path: ['end_date'],
  });
export type TaxReportParams = z.output<typeof TaxReportQuery>;

export const TaxReportRow = z
  .object({
    country: z.string(),
    state: z.string().nullable(),
    label: z.string().nullable(),
    rate_basis_points: z.int(),
    reverse_charge: z.boolean(),
    currency: z.string(),
    order_count: z.int(),
    taxable_amount: z.int().meta({ description: 'Sales excluding tax (after discounts), minor units.' }),
    tax_amount: z.int().meta({ description: 'Tax collected, minor units.' }),
    refunded_amount: z.int().meta({ description: 'Of those sales, refunded (excluding tax), as of now.' }),
    refunded_tax_amount: z.int().meta({ description: 'Of that tax, refunded, as of now.' }),
  })
  .meta({ id: 'TaxReportRow', ...extension });

export const TaxReport = z
  .object({
    organization_id: z.uuid(),
    start_date: z.string(),
    end_date: z.string(),
    rows: z.array(TaxReportRow),
  })
  .meta({ id: 'TaxReport', ...extension });
export type TaxReportWire = z.input<typeof TaxReport>;
