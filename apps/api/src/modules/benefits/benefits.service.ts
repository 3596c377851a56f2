import { revokeBenefitGrantsJob } from '../benefit-grants/benefit-grants.jobs.js';
import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import {
  BadRequest,
  IssueCollector,
  NotPermitted,
  ResourceNotFound,
  validationError,
} from '../../platform/http/errors.js';
import { runIn } from '../../platform/jobs/queue.js';
import { discordGuild, ProviderError } from '../integrations/integrations.providers.js';
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

/**
 * Whether the Discord bot can give a benefit's role, asked of Discord before any transaction is open:
 * null when it can (or when this server has no bot to ask with), else the 422 message at
 * `properties.role_id`. Discord gives a bot only roles below its own highest role, never managed roles.
 */
async function discordRoleIssue(ctx: Context, guildId: string | null, roleId: string): Promise<string | null> {
  if (!guildId || !ctx.config.discordBotToken) return null;
  const guild = await discordGuild(fetch, ctx.config, guildId).catch((error: unknown) => {
    if (error instanceof ProviderError) throw new BadRequest(error.message);
    throw error;
  });
  const role = guild.roles.find((candidate) => candidate.id === roleId);
  if (!role) return 'This role does not exist on the Discord server, or it cannot be given.';
  if (role.manageable) return null;
  if (role.is_bot) return "This is the bot's own role: it cannot be given.";
  return `The bot cannot give the role "${role.name}": in the Discord server's settings (Roles), move the bot's role above it.`;
}

function usageBasedBillingEnabled(organization: OrganizationRow): boolean {
  return Boolean(
    (organization.feature_settings as { usage_based_billing_enabled?: boolean } | null)?.usage_based_billing_enabled,
  );
}

/** Runs with no transaction open (the route's `transaction: false`): Discord is asked about the role first. */
export async function createBenefit(ctx: Context, input: BenefitCreateInput): Promise<BenefitRow> {
  const roleIssue =
    input.type === 'discord'
      ? await discordRoleIssue(
          ctx,
          verifyGuildToken(ctx.config.secret, input.properties.guild_token, ctx.clock.now()),
          input.properties.role_id,
        )
      : null;
  return (ctx.transactions ?? runIn(ctx)).transaction((tx) => insertNewBenefit(tx, input, roleIssue));
}

async function insertNewBenefit(ctx: Context, input: BenefitCreateInput, roleIssue: string | null) {
  const organization = await resolveOrganizationForWrite(ctx, input.organization_id);
  const issues = new IssueCollector();
  // As the reference did at the pinned version: meter credits need usage-based billing switched on.
  if (input.type === 'meter_credit' && !usageBasedBillingEnabled(organization)) {
    issues.add(['body', 'type'], 'Usage based billing is not enabled on your organization.');
  }
  const properties = await resolveProperties(ctx, organization.id, input as AnyCreateProperties, issues);
  if (roleIssue) issues.add([...PROPERTIES, 'role_id'], roleIssue);
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
 * sent, are validated again and replace the stored ones whole. Runs with no transaction open: a
 * Discord benefit's new role (or server) is checked with Discord first.
 */
export async function updateBenefit(ctx: Context, id: string, input: BenefitUpdateInput): Promise<BenefitRow> {
  let roleIssue: string | null = null;
  let checked: StoredProperties['discord'] | null = null;
  if (input.type === 'discord' && input.properties != null) {
    const seen = await findVisibleBenefit(ctx.db, ctx.subject, id);
    const stored = seen?.type === 'discord' ? (seen.properties as StoredProperties['discord']) : undefined;
    const { guild_token, role_id } = input.properties as CreateProperties<'discord'>;
    const guildId =
      stored && stored.guild_token === guild_token
        ? stored.guild_id
        : verifyGuildToken(ctx.config.secret, guild_token, ctx.clock.now());
    if (guildId && (guildId !== stored?.guild_id || role_id !== stored.role_id)) {
      roleIssue = await discordRoleIssue(ctx, guildId, role_id);
      checked = { guild_id: guildId, role_id, guild_token };
    }
  }
  return (ctx.transactions ?? runIn(ctx)).transaction((tx) => applyBenefitUpdate(tx, id, input, roleIssue, checked));
}

async function applyBenefitUpdate(
  ctx: Context,
  id: string,
  input: BenefitUpdateInput,
  roleIssue: string | null,
  checked: StoredProperties['discord'] | null,
): Promise<BenefitRow> {
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
    if (roleIssue) issues.add([...PROPERTIES, 'role_id'], roleIssue);
    if (current.type === 'discord' && ctx.config.discordBotToken) {
      const before = current.properties as StoredProperties['discord'];
      const saving = changes.properties as StoredProperties['discord'];
      const changed = saving.guild_id !== before.guild_id || saving.role_id !== before.role_id;
      const asChecked = checked?.guild_id === saving.guild_id && checked.role_id === saving.role_id;
      // The benefit changed between Discord's answer and this transaction: what would be saved was never checked.
      if (changed && saving.guild_id && !asChecked)
        throw new BadRequest('The benefit changed meanwhile. Please try again.');
    }
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
  const benefit = await getBenefit(ctx, benefitId);
  const { rows, total } = await listBenefitGrants(ctx.db, benefitId, params);
  const customers = await findGrantCustomers(
    ctx.db,
    rows.map((row) => row.customer_id),
  );
  const items = rows.map((row) => serializeBenefitGrant(row, customers.get(row.customer_id)!, benefit));
  return pageOf(items, total, params);
}
