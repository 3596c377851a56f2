import type { z } from 'zod/v4';
import { iso } from '../../platform/http/schemas.js';
import type { Metadata } from '../../platform/http/metadata.js';
import type { CustomFieldRow } from './custom-fields.repository.js';
import type { CustomField } from './custom-fields.schemas.js';

export type CustomFieldWire = z.input<typeof CustomField>;

export function serializeCustomField(row: CustomFieldRow): CustomFieldWire {
  return {
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    metadata: row.metadata as Metadata,
    type: row.type,
    slug: row.slug,
    name: row.name,
    organization_id: row.organization_id,
    // Stored only after validation against the row's type.
    properties: row.properties,
  } as CustomFieldWire;
}
