import type { Generated } from 'kysely';
import type { NullableTimestamp } from './types.js';

/** Migration 0056: one row per event name of an organization, with the seller's label. */
export interface EventTypesTable {
  id: Generated<string>;
  created_at: Generated<Date>;
  modified_at: NullableTimestamp;
  organization_id: string;
  name: string;
  label: string;
  label_property_selector: string | null;
}

export interface EventTypesTables {
  event_types: EventTypesTable;
}
