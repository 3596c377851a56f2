import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { IssueCollector, ResourceNotFound, validationError } from '../../platform/http/errors.js';
import { pageOf } from '../../platform/http/query.js';
import { safeParseInput, toValidationIssues } from '../../platform/http/validation.js';
import { resolveOrganizationForWrite } from '../organizations/organizations.service.js';
import {
  detachCustomFieldFromProducts,
  findCustomFieldBySlug,
  findVisibleCustomField,
  insertCustomField,
  listVisibleCustomFields,
  lockVisibleCustomField,
  softDeleteCustomField,
  updateCustomField as updateCustomFieldRow,
  type CustomFieldChanges,
  type CustomFieldRow,
} from './custom-fields.repository.js';
import {
  PROPERTIES_BY_TYPE,
  type CustomFieldCreateInput,
  type CustomFieldListParams,
  type CustomFieldUpdateInput,
} from './custom-fields.schemas.js';

const SLUG_TAKEN = 'Custom field with this slug already exists.';

/** Custom fields have no webhook events (none is defined for them), so no event is recorded here. */
export async function createCustomField(ctx: Context, input: CustomFieldCreateInput): Promise<CustomFieldRow> {
  const organization = await resolveOrganizationForWrite(ctx, input.organization_id);
  if (await findCustomFieldBySlug(ctx.db, organization.id, input.slug)) {
    throw validationError(['body', 'slug'], SLUG_TAKEN);
  }
  try {
    return await insertCustomField(ctx.db, {
      id: randomUUID(),
      created_at: ctx.clock.now(),
      modified_at: null,
      deleted_at: null,
      organization_id: organization.id,
      type: input.type,
      slug: input.slug,
      name: input.name,
      properties: input.properties,
      metadata: input.metadata ?? {},
    });
  } catch (error) {
    // Two creations racing for one slug: the unique index decides, the loser gets the same 422.
    if (isUniqueViolation(error)) throw validationError(['body', 'slug'], SLUG_TAKEN);
    throw error;
  }
}

export async function getCustomField(ctx: Context, id: string): Promise<CustomFieldRow> {
  const row = await findVisibleCustomField(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return row;
}

export async function listCustomFields(ctx: Context, params: CustomFieldListParams) {
  const { rows, total } = await listVisibleCustomFields(ctx.db, ctx.subject, params);
  return pageOf(rows, total, params);
}

/**
 * The type never changes (stored answers depend on it): a `type` that differs is a 422, and
 * `properties` are validated against the field's own type. `null` leaves a key unchanged.
 *
 * The reference also renames the key in the `custom_field_data` of existing checkouts, orders and
 * subscriptions when the slug changes; those tables call into this module once they exist.
 */
export async function updateCustomField(
  ctx: Context,
  id: string,
  input: CustomFieldUpdateInput,
): Promise<CustomFieldRow> {
  const current = await lockVisibleCustomField(ctx.db, ctx.subject, id);
  if (!current) throw new ResourceNotFound();
  const issues = new IssueCollector();
  const changes: CustomFieldChanges = { modified_at: ctx.clock.now() };

  if (input.type !== undefined && input.type !== current.type) {
    issues.add(['body', 'type'], "The type of a custom field can't be changed.");
  }
  if (input.properties != null) {
    const parsed = safeParseInput(PROPERTIES_BY_TYPE[current.type], input.properties);
    if (parsed.success) changes.properties = parsed.data;
    else issues.issues.push(...toValidationIssues(parsed.error.issues, ['body', 'properties']));
  }
  if (input.slug != null && input.slug !== current.slug) {
    const existing = await findCustomFieldBySlug(ctx.db, current.organization_id, input.slug);
    if (existing && existing.id !== current.id) issues.add(['body', 'slug'], SLUG_TAKEN);
    changes.slug = input.slug;
  }
  issues.throwIfAny();

  if (input.name != null) changes.name = input.name;
  if (input.metadata !== undefined) changes.metadata = input.metadata;
  try {
    return await updateCustomFieldRow(ctx.db, current.id, changes);
  } catch (error) {
    if (isUniqueViolation(error)) throw validationError(['body', 'slug'], SLUG_TAKEN);
    throw error;
  }
}

/**
 * Soft delete: the row stays (stored answers keep their slug) but is no longer visible or attachable,
 * and it is detached from every product, as the reference does.
 */
export async function deleteCustomField(ctx: Context, id: string): Promise<void> {
  const current = await lockVisibleCustomField(ctx.db, ctx.subject, id);
  if (!current) throw new ResourceNotFound();
  await softDeleteCustomField(ctx.db, current.id, ctx.clock.now());
  await detachCustomFieldFromProducts(ctx.db, current.id);
}
