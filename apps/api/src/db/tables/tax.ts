import type { NullableTimestamp, Timestamp } from './types.js';

/** Tables of migration 0026: the places an organization collects tax, with their rates. */
export interface TaxRegistrationsTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  organization_id: string;
  country: string;
  /** '' for the whole country. */
  state: string;
  rate_basis_points: number;
  label: string;
}

export interface TaxTables {
  tax_registrations: TaxRegistrationsTable;
}
