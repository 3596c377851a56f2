import type { z } from 'zod/v4';
import type { Metadata } from '../../platform/http/metadata.js';
import { iso } from '../../platform/http/schemas.js';
import type { MeterRow } from './meters.repository.js';
import type { Meter } from './meters.schemas.js';

export type MeterWire = z.input<typeof Meter>;

export function serializeMeter(row: MeterRow): MeterWire {
  return {
    metadata: (row.metadata ?? {}) as Metadata,
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    name: row.name,
    filter: row.filter as MeterWire['filter'],
    aggregation: row.aggregation as MeterWire['aggregation'],
    organization_id: row.organization_id,
  };
}
