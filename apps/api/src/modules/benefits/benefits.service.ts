import { revokeBenefitGrantsJob } from '../benefit-grants/benefit-grants.jobs.js';
import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { IssueCollector, NotPermitted, ResourceNotFound, validationError } from '../../platform/http/errors.js';
import { pageOf } from '../../platform/http/query.js';
import { recordWebhookEvent } from '../../platform/events.js';
import { enqueueGrantUpdates } from '../benefit-grants/benefit-grants.service.js';
import { resolveOrganizationForWrite } from '../organizations/organizations.service.js';
import type { OrganizationRow } from '../organizations/organizations.repository.js';
import {
  detachBenefitFromProducts,
  findDownloadableFileIds,
  findGrantCustomers,
  findMeterOfOrganization,
  findVisibleBenefit,
  insertBenefit,
  listBenefitGrants,
  listVisibleBenefits,
  lockVisibleBenefit,
  updateBenefit as updateBenefitRow,
  type BenefitChanges,
  type BenefitRow,
} from './benefits.repository.js';
import {
  normalizeLicenseKeys,
  verifyGuildToken,
  type BenefitType,
  type CreateProperties,
  type StoredProperties,
} from './benefits.properties.js';
import type {
  BenefitCreateInput,
  BenefitGrantListParams,
  BenefitListParams,
  BenefitUpdateInput,
} from './benefits.schemas.js';
import { serializeBenefit, serializeBenefitGrant, type BenefitGrantWire } from './benefits.serializer.js';
import type { Page } from '../../platform/http/query.js';

const PROPERTIES = ['body', 'properties'];

type AnyCreateProperties = { [T in BenefitType]: { type: T; properties: CreateProperties<T> } }[BenefitType];

/**
 * Checks a type's properties against the world (tokens, meters, files) and returns what is stored.
 * `previous` is the benefit's current stored properties on update. Problems go into `issues`.
 */
async function resolveProperties(
  ctx: Context,
  organizationId: string,
  input: AnyCreateProperties,
  issues: IssueCollector,
  previous?: unknown,
): Promise<unknown> {
  switch (input.type) {
    case 'custom':
      return { note: input.properties.note ?? null } satisfies StoredProperties['custom'];
    case 'discord': {
      const { guild_token, role_id } = input.properties;
      const stored = previous as StoredProperties['discord'] | undefined;
      // The token this benefit was last saved with stays acceptable: clients send back what they read.
      let guildId: string | null =
        stored && stored.guild_token === guild_token
          ? stored.guild_id
          : verifyGuildToken(ctx.config.secret, guild_token, ctx.clock.now());
      if (!guildId) {
        issues.add([...PROPERTIES, 'guild_token'], 'Invalid token. Please authenticate your Discord server again.');
        guildId = '';
      }
      return { guild_id: guildId, role_id, guild_token } satisfies StoredProperties['discord'];
    }
    case 'github_repository':
      return { ...input.properties } satisfies StoredProperties['github_repository'];
    case 'downloadables': {
      const { files, archived } = input.properties;
      const known = await findDownloadableFileIds(ctx.db, organizationId, files);
      files.forEach((id, index) => {
        if (!known.has(id)) issues.add([...PROPERTIES, 'files', index], 'File not found');
      });
      return { archived, files } satisfies StoredProperties['downloadables'];
    }
    case 'license_keys':
      return normalizeLicenseKeys(input.properties);
    case 'meter_credit': {
      const { units, rollover, meter_id } = input.properties;
      const meter = await findMeterOfOrganization(ctx.db, organizationId, meter_id);
      if (!meter) issues.add([...PROPERTIES, 'meter_id'], 'This meter does not exist.');
      else if (meter.archived_at) issues.add([...PROPERTIES, 'meter_id'], 'This meter is archived.');
      return { units, rollover, meter_id } satisfies StoredProperties['meter_credit'];
    }
  }
}

function usageBasedBillingEnabled(organization: OrganizationRow): boolean {
  return Boolean(
    (organization.feature_settings as { usage_based_billing_enabled?: boolean } | null)?.usage_based_billing_enabled,
  );
}

export async function createBenefit(ctx: Context, input: BenefitCreateInput): Promise<BenefitRow> {
  const organization = await resolveOrganizationForWrite(ctx, input.organization_id);
  const issues = new IssueCollector();
  // As the reference did at the pinned version: meter credits need usage-based billing switched on.
  if (input.type === 'meter_credit' && !usageBasedBillingEnabled(organization)) {
    issues.add(['body', 'type'], 'Usage based billing is not enabled on your organization.');
  }
  const properties = await resolveProperties(ctx, organization.id, input as AnyCreateProperties, issues);
  issues.throwIfAny();

  const row = await insertBenefit(ctx.db, {
    id: randomUUID(),
    created_at: ctx.clock.now(),
    modified_at: null,
    deleted_at: null,
    organization_id: organization.id,
    type: input.type,
    description: input.description,
    // The API has no way to set these: only system benefits are unselectable or undeletable.
    selectable: true,
    deletable: true,
    is_tax_applicable: true,
    properties,
    metadata: input.metadata ?? {},
  });
  await recordWebhookEvent(ctx, row.organization_id, 'benefit.created', serializeBenefit(row));
  return row;
}

export async function getBenefit(ctx: Context, id: string): Promise<BenefitRow> {
  const row = await findVisibleBenefit(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return row;
}

export async function listBenefits(ctx: Context, params: BenefitListParams) {
  const { rows, total } = await listVisibleBenefits(ctx.db, ctx.subject, params);
  return pageOf(rows, total, params);
}

/**
 * `type` must be the stored type; `description` and `metadata` change when sent; `properties`, when
 * sent, are validated again and replace the stored ones whole.
 */
export async function updateBenefit(ctx: Context, id: string, input: BenefitUpdateInput): Promise<BenefitRow> {
  const current = await lockVisibleBenefit(ctx.db, ctx.subject, id);
  if (!current) throw new ResourceNotFound();
  if (input.type !== current.type) throw validationError(['body', 'type'], 'Benefit type cannot be changed.');

  const issues = new IssueCollector();
  const changes: BenefitChanges = { modified_at: ctx.clock.now() };
  if (input.description != null) changes.description = input.description;
  if (input.metadata !== undefined) changes.metadata = input.metadata;
  if (input.properties != null) {
    changes.properties = await resolveProperties(
      ctx,
      current.organization_id,
      { type: input.type, properties: input.properties } as AnyCreateProperties,
      issues,
      current.properties,
    );
  }
  issues.throwIfAny();

  const updated = await updateBenefitRow(ctx.db, id, changes);
  await recordWebhookEvent(ctx, updated.organization_id, 'benefit.updated', serializeBenefit(updated));
  await enqueueGrantUpdates(ctx, current, updated);
  return updated;
}

/**
 * Soft-deletes the benefit and detaches it from products; as the reference does, the event is
 * `benefit.updated` (there is no deleted event). Revoking its grants comes with the grants module.
 */
export async function deleteBenefit(ctx: Context, id: string): Promise<void> {
  const current = await lockVisibleBenefit(ctx.db, ctx.subject, id);
  if (!current) throw new ResourceNotFound();
  if (!current.deletable) throw new NotPermitted();
  const now = ctx.clock.now();
  const deleted = await updateBenefitRow(ctx.db, id, { modified_at: now, deleted_at: now });
  await detachBenefitFromProducts(ctx.db, id);
  // As the reference's `benefit.delete`: every granted grant of it is revoked, in jobs after commit.
  await ctx.jobs.enqueue(revokeBenefitGrantsJob, { benefit_id: id });
  await recordWebhookEvent(ctx, deleted.organization_id, 'benefit.updated', serializeBenefit(deleted));
}

/** Grants of a benefit the caller can see (404 otherwise), each with its customer, newest first. */
export async function listGrants(
  ctx: Context,
  benefitId: string,
  params: BenefitGrantListParams,
): Promise<Page<BenefitGrantWire>> {
  await getBenefit(ctx, benefitId);
  const { rows, total } = await listBenefitGrants(ctx.db, benefitId, params);
  const customers = await findGrantCustomers(
    ctx.db,
    rows.map((row) => row.customer_id),
  );
  const items = rows.map((row) => serializeBenefitGrant(row, customers.get(row.customer_id)!));
  return pageOf(items, total, params);
}
