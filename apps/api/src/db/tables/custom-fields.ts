import type { Json, NullableTimestamp, Timestamp } from './types.js';

export type CustomFieldTypeColumn = 'text' | 'number' | 'date' | 'checkbox' | 'select';

/** Tables of migration 0004: custom fields. */
export interface CustomFieldsTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  organization_id: string;
  type: CustomFieldTypeColumn;
  slug: string;
  name: string;
  properties: Json;
  metadata: Json;
}

export interface CustomFieldsTables {
  custom_fields: CustomFieldsTable;
}
