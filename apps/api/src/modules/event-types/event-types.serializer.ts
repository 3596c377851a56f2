import type { z } from 'zod/v4';
import { iso } from '../../platform/http/schemas.js';
import type { EventTypeRow, EventTypeStatsRow } from './event-types.repository.js';
import type { EventType, EventTypeWithStats } from './event-types.schemas.js';

export function serializeEventType(row: EventTypeRow): z.input<typeof EventType> {
  return {
    created_at: iso(row.created_at),
    modified_at: row.modified_at ? iso(row.modified_at) : null,
    id: row.id,
    name: row.name,
    label: row.label,
    label_property_selector: row.label_property_selector,
    organization_id: row.organization_id,
  };
}

export function serializeEventTypeWithStats(row: EventTypeStatsRow): z.input<typeof EventTypeWithStats> {
  return {
    id: row.id,
    created_at: row.created_at ? iso(row.created_at) : null,
    modified_at: row.modified_at ? iso(row.modified_at) : null,
    name: row.name,
    label: row.label,
    label_property_selector: row.label_property_selector,
    organization_id: row.organization_id,
    source: row.source,
    occurrences: Number(row.occurrences),
    first_seen: iso(row.first_seen),
    last_seen: iso(row.last_seen),
  };
}
