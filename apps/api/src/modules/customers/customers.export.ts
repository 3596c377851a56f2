import { isoformat, pythonJson, type CsvValue } from '../../platform/http/csv.js';

/**
 * `GET /v1/customers/export`: the reference's columns (server/polar/customer/endpoints.py `export`).
 * The tax ID is its value (the reference prints its (value, type) pair); metadata as `json.dumps`, empty
 * when there is none.
 */
export const CUSTOMER_EXPORT_HEADER = [
  'ID',
  'External ID',
  'Created At',
  'Email',
  'Name',
  'Tax ID',
  'Billing Address Line 1',
  'Billing Address Line 2',
  'Billing Address City',
  'Billing Address State',
  'Billing Address Zip',
  'Billing Address Country',
  'Metadata',
] as const;

export interface CustomerExportRow {
  id: string;
  external_id: string | null;
  created_at: Date;
  email: string;
  name: string | null;
  tax_id: unknown;
  billing_address: unknown;
  metadata: unknown;
}

type StoredAddress = Partial<Record<'line1' | 'line2' | 'city' | 'state' | 'postal_code' | 'country', string | null>>;

export function customerExportCells(row: CustomerExportRow): CsvValue[] {
  const address = (row.billing_address ?? null) as StoredAddress | null;
  const taxId = Array.isArray(row.tax_id) ? (row.tax_id[0] as string) : ((row.tax_id as string | null) ?? null);
  const metadata = (row.metadata ?? {}) as Record<string, unknown>;
  return [
    row.id,
    row.external_id,
    isoformat(row.created_at),
    row.email,
    row.name,
    taxId,
    address?.line1,
    address?.line2,
    address?.city,
    address?.state,
    address?.postal_code,
    address?.country,
    Object.keys(metadata).length > 0 ? pythonJson(metadata) : null,
  ];
}
