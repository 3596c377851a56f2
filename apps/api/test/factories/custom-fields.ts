import { randomBytes } from 'node:crypto';
import { createCustomField } from '../../src/modules/custom-fields/custom-fields.service.js';
import type { CustomFieldRow } from '../../src/modules/custom-fields/custom-fields.repository.js';
import type { CustomFieldCreateInput } from '../../src/modules/custom-fields/custom-fields.schemas.js';
import type { TestServer } from '../harness.js';

export function uniqueFieldSlug(prefix = 'field'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/** A custom field of the organization, created as its own token would (a text field unless told). */
export async function customFieldFactory(
  server: TestServer,
  organizationId: string,
  overrides: Partial<Omit<CustomFieldCreateInput, 'type' | 'properties'>> &
    Partial<Pick<CustomFieldCreateInput, 'type' | 'properties'>> = {},
): Promise<CustomFieldRow> {
  const ctx = server.context({
    kind: 'organization',
    organizationId,
    tokenId: 'factory',
    scopes: new Set(['custom_fields:write']),
  });
  const slug = overrides.slug ?? uniqueFieldSlug();
  const input = {
    type: 'text',
    properties: {},
    name: overrides.name ?? `Field ${slug}`,
    ...overrides,
    slug,
    organization_id: null,
  } as CustomFieldCreateInput;
  return createCustomField(ctx, input);
}
