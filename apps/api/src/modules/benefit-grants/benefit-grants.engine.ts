import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { recordWebhookEvent } from '../../platform/events.js';
import type { JobRun } from '../../platform/jobs/queue.js';
import type { BenefitType, StoredProperties } from '../benefits/benefits.properties.js';
import type { BenefitGrantRow, BenefitRow } from '../benefits/benefits.repository.js';
import { findDownloadableFileIds } from '../benefits/benefits.repository.js';
import { grantDownloadables, grantedFileIds, revokeDownloadables } from '../files/files.repository.js';
import { findSubscriptionsByIds } from '../subscriptions/subscriptions.repository.js';
import { customerStateOf } from '../customers/customers.state.js';
import { rolloverUnitsOfWindow } from '../customer-meters/customer-meters.service.js';
import { METER_CREDITED, METER_RESET } from '../customer-meters/customer-meters.window.js';
import { shareUsageWindows, usageInstant } from '../billing/billing.usage.repository.js';
import { onOrganizationClock } from '../../platform/test-clock.js';
import { createKeyForGrant, refreshKeyForGrant, revokeKeyOfGrant } from '../license-keys/license-keys.service.js';
import {
  claimGrantCycle,
  countGrantedGrants,
  ensureGrantLocked,
  findBenefitById,
  findCustomerById,
  hasMeterResetSince,
  insertSystemEvent,
  lockGrant,
  updateGrant,
  type GrantKey,
} from './benefit-grants.repository.js';
import { connectedAccount } from './benefit-grants.accounts.js';
import { findOAuthAccount } from '../customer-portal/oauth-accounts/oauth-accounts.repository.js';
import {
  BenefitRetriableError,
  discordApiOf,
  discordGrant,
  discordRevoke,
  githubGrant,
  githubRevoke,
  type Fetch,
} from './benefit-grants.remote.js';
import { serializeGrantWebhook } from './benefit-grants.serializer.js';

/**
 * The grant engine: what the grant, revoke, update and cycle jobs do. Each runs as short
 * transactions around the (optional) remote call, so no transaction spans a network wait:
 *   1. prepare: find or create the grant (one per customer, benefit and scope), decide what to do;
 *   2. remote: the Discord or GitHub adapter, outside any transaction;
 *   3. complete: under the grant's row lock, the local side effects (license key, meter credit),
 *      the grant's new state, system events and webhooks.
 * A failure is recorded on the grant (`error {message, type, timestamp}`) in a transaction of its
 * own; transient ones are rethrown so the queue retries, action-required ones leave the grant waiting.
 */

type Props = Record<string, unknown>;

/** Subscription statuses that hold their benefits (as the reference's `active_statuses`). */
export const GRANTING_STATUSES = ['active', 'trialing'];

function errorOf(error: Error, now: Date) {
  return { message: error.message, type: error.name || error.constructor.name, timestamp: now.toISOString() };
}

async function recordFailure(run: JobRun, grantId: string, error: Error): Promise<void> {
  await run.transaction(async (tx) => {
    const grant = await lockGrant(tx.db, grantId);
    if (!grant || grant.granted_at) return;
    await updateGrant(tx.db, grantId, { modified_at: tx.clock.now(), error: errorOf(error, tx.clock.now()) });
  });
}

/**
 * A system event of the customer, at the organization's time (its test clock). A meter's credit or reset
 * holds the organization's usage lock (shared, as an ingest) and is stamped once it holds it, at the
 * usage instant ingests and billing stamp with (the database's clock, after the organization's latest
 * reset): billing closing the meter's window either sees it or closes before its instant, and a credit
 * written after billing's reset is in the window that reset opened. Answers the instant.
 */
async function systemEvent(
  ctx: Context,
  benefit: BenefitRow,
  customerId: string,
  name: string,
  metadata: Props,
): Promise<Date> {
  let at: Date;
  if (name === METER_CREDITED || name === METER_RESET) {
    await shareUsageWindows(ctx.db, benefit.organization_id);
    at = await usageInstant(ctx.db, benefit.organization_id, { testClocks: ctx.config.devMode });
  } else at = (await onOrganizationClock(ctx, benefit.organization_id)).clock.now();
  await insertSystemEvent(ctx.db, {
    id: randomUUID(),
    at,
    organization_id: benefit.organization_id,
    customer_id: customerId,
    name,
    metadata,
  });
  return at;
}

async function announce(
  ctx: Context,
  type: 'benefit_grant.created' | 'benefit_grant.updated' | 'benefit_grant.cycled' | 'benefit_grant.revoked',
  grant: BenefitGrantRow,
  benefit: BenefitRow,
  previous: unknown,
  stateChanged: boolean,
): Promise<void> {
  const customer = (await findCustomerById(ctx.db, grant.customer_id))!;
  await recordWebhookEvent(
    ctx,
    benefit.organization_id,
    type,
    serializeGrantWebhook(grant, customer, benefit, previous),
  );
  const eventName = {
    'benefit_grant.created': 'benefit.granted',
    'benefit_grant.updated': 'benefit.updated',
    'benefit_grant.cycled': 'benefit.cycled',
    'benefit_grant.revoked': 'benefit.revoked',
  }[type];
  await systemEvent(ctx, benefit, grant.customer_id, eventName, {
    benefit_id: benefit.id,
    benefit_grant_id: grant.id,
    benefit_type: benefit.type,
  });
  if (stateChanged)
    await recordWebhookEvent(
      ctx,
      benefit.organization_id,
      'customer.state_changed',
      await customerStateOf(ctx.db, customer),
    );
}

// ---------------------------------------------------------------------------------------------------
// Per type
// ---------------------------------------------------------------------------------------------------

/**
 * The remote half of granting (Discord, GitHub); the local types have none. The grant's `account_id`
 * is the customer's choice among their connected accounts (PATCH in the portal); without one, or once
 * it is disconnected, the adapter says the customer needs to connect.
 */
async function remoteGrant(ctx: Context, run: JobRun, fetchFn: Fetch, benefit: BenefitRow, grant: BenefitGrantRow) {
  const current = (grant.properties ?? {}) as Props;
  const accountId = typeof current.account_id === 'string' ? current.account_id : undefined;
  switch (benefit.type as BenefitType) {
    case 'discord': {
      const p = benefit.properties as StoredProperties['discord'];
      const account = ctx.config.discordBotToken
        ? await connectedAccount(ctx, run, fetchFn, { customerId: grant.customer_id, platform: 'discord', accountId })
        : undefined;
      return discordGrant(fetchFn, {
        api: discordApiOf(ctx.config.discordUrl),
        botToken: ctx.config.discordBotToken,
        guildId: p.guild_id,
        roleId: p.role_id,
        accountId: account?.accountId,
        accessToken: account?.accessToken,
      });
    }
    case 'github_repository': {
      const p = benefit.properties as StoredProperties['github_repository'];
      const account = accountId ? await findOAuthAccount(ctx.db, grant.customer_id, 'github', accountId) : undefined;
      return githubGrant(fetchFn, {
        api: ctx.config.githubApiUrl,
        token: ctx.config.githubToken,
        owner: p.repository_owner,
        repository: p.repository_name,
        permission: p.permission,
        accountId: account?.account_id,
        username: account?.account_username ?? undefined,
      });
    }
    default:
      return undefined;
  }
}

/** Takes back what the grant gave `accountId` (default: the grant's account). */
async function remoteRevoke(
  ctx: Context,
  fetchFn: Fetch,
  benefit: BenefitRow,
  grant: BenefitGrantRow,
  revokeAccountId?: string,
) {
  const current = (grant.properties ?? {}) as Props;
  const accountId = revokeAccountId ?? (typeof current.account_id === 'string' ? current.account_id : undefined);
  if (benefit.type === 'discord') {
    const p = (current.guild_id ? current : benefit.properties) as { guild_id: string; role_id: string };
    await discordRevoke(fetchFn, {
      api: discordApiOf(ctx.config.discordUrl),
      botToken: ctx.config.discordBotToken,
      guildId: p.guild_id,
      roleId: p.role_id,
      accountId,
    });
  } else if (benefit.type === 'github_repository') {
    const p = benefit.properties as StoredProperties['github_repository'];
    // The username is the connected account's (a disconnected one can no longer be named: nothing to do).
    const account = accountId ? await findOAuthAccount(ctx.db, grant.customer_id, 'github', accountId) : undefined;
    await githubRevoke(fetchFn, {
      api: ctx.config.githubApiUrl,
      token: ctx.config.githubToken,
      owner: (current.repository_owner as string) ?? p.repository_owner,
      repository: (current.repository_name as string) ?? p.repository_name,
      username: account?.account_username ?? undefined,
    });
  }
}

/** The files a grant lists: the benefit's files that exist and are not archived. */
async function grantedFiles(ctx: Context, benefit: BenefitRow): Promise<string[]> {
  const p = benefit.properties as StoredProperties['downloadables'];
  const active = p.files.filter((id) => !p.archived?.[id]);
  const known = await findDownloadableFileIds(ctx.db, benefit.organization_id, active);
  return active.filter((id) => known.has(id));
}

async function localGrant(
  ctx: Context,
  benefit: BenefitRow,
  grant: BenefitGrantRow,
  remote: Props | undefined,
  update: boolean,
): Promise<Props> {
  const current = (grant.properties ?? {}) as Props;
  switch (benefit.type as BenefitType) {
    case 'custom':
      return {};
    case 'downloadables':
      return { files: await grantDownloadableFiles(ctx, benefit, grant.customer_id) };
    case 'license_keys': {
      // An update refreshes the key it has; a (re-)grant always mints a new one.
      if (update && typeof current.license_key_id === 'string') {
        const key = await refreshKeyForGrant(ctx, current.license_key_id, benefit);
        if (key) return { license_key_id: key.id, display_key: current.display_key };
      }
      const key = await createKeyForGrant(ctx, benefit, grant.customer_id);
      return { license_key_id: key.id, display_key: `****-${key.key.slice(-6)}` };
    }
    case 'meter_credit': {
      if (update) return current;
      const p = benefit.properties as StoredProperties['meter_credit'];
      return creditMeter(ctx, benefit, grant.customer_id, p.meter_id, p.units, p.rollover);
    }
    case 'discord':
    case 'github_repository':
      return remote ?? current;
  }
}

async function creditMeter(
  ctx: Context,
  benefit: BenefitRow,
  customerId: string,
  meterId: string,
  units: number,
  rollover: boolean,
): Promise<Props> {
  const at = await systemEvent(ctx, benefit, customerId, 'meter.credited', { meter_id: meterId, units, rollover });
  // On the usage clock: the cycle compares it with the instants of the meter's resets.
  return { last_credited_meter_id: meterId, last_credited_units: units, last_credited_at: at.toISOString() };
}

/**
 * The customer's downloadables of a grant: the benefit's active files are granted; an archived file
 * the customer already has is kept (hidden from new grants only); a file no longer listed is revoked.
 */
async function grantDownloadableFiles(ctx: Context, benefit: BenefitRow, customerId: string): Promise<string[]> {
  const files = await grantedFiles(ctx, benefit);
  const listed = new Set((benefit.properties as StoredProperties['downloadables']).files);
  const held = (await grantedFileIds(ctx.db, customerId, benefit.id)).filter((id) => listed.has(id));
  const now = ctx.clock.now();
  await grantDownloadables(
    ctx.db,
    files.map((file_id) => ({ id: randomUUID(), customer_id: customerId, file_id, benefit_id: benefit.id })),
    now,
  );
  await revokeDownloadables(ctx.db, customerId, benefit.id, now, [...new Set([...files, ...held])]);
  return files;
}

async function localRevoke(ctx: Context, benefit: BenefitRow, grant: BenefitGrantRow): Promise<void> {
  const current = (grant.properties ?? {}) as Props;
  if (benefit.type === 'downloadables') {
    await revokeDownloadables(ctx.db, grant.customer_id, benefit.id, ctx.clock.now());
  }
  if (benefit.type === 'license_keys' && typeof current.license_key_id === 'string') {
    await revokeKeyOfGrant(ctx, current.license_key_id);
  }
  if (benefit.type === 'meter_credit' && typeof current.last_credited_units === 'number') {
    const p = benefit.properties as StoredProperties['meter_credit'];
    await systemEvent(ctx, benefit, grant.customer_id, 'meter.credited', {
      meter_id: (current.last_credited_meter_id as string) ?? p.meter_id,
      units: -current.last_credited_units,
      rollover: p.rollover,
    });
  }
}

/**
 * Whether the grant delivered another Discord role (or server) or another GitHub repository than the
 * benefit now names: what it holds must then be taken back before the new one is given. A permission
 * change alone is not: inviting again with the new permission replaces it.
 */
function remoteTargetChanged(benefit: BenefitRow, grant: BenefitGrantRow): boolean {
  const held = (grant.properties ?? {}) as Props;
  if (benefit.type === 'discord') {
    const p = benefit.properties as StoredProperties['discord'];
    return typeof held.guild_id === 'string' && (held.guild_id !== p.guild_id || held.role_id !== p.role_id);
  }
  if (benefit.type === 'github_repository') {
    const p = benefit.properties as StoredProperties['github_repository'];
    return (
      typeof held.repository_owner === 'string' &&
      (held.repository_owner !== p.repository_owner || held.repository_name !== p.repository_name)
    );
  }
  return false;
}

/** Whether a change of a benefit's properties must reach its grants (the reference's `requires_update`). */
export function requiresUpdate(type: string, previous: unknown, next: unknown): boolean {
  const a = (previous ?? {}) as Props;
  const b = (next ?? {}) as Props;
  const same = (keys: string[]) => keys.every((k) => JSON.stringify(a[k] ?? null) === JSON.stringify(b[k] ?? null));
  switch (type) {
    case 'discord':
      return !same(['guild_id', 'role_id']);
    case 'github_repository':
      return !same(['repository_owner', 'repository_name', 'permission']);
    case 'license_keys':
      return !same(['expires', 'activations', 'limit_usage']);
    case 'downloadables': {
      const active = (p: Props) =>
        ((p.files as string[] | undefined) ?? []).filter((id) => !(p.archived as Record<string, boolean>)?.[id]).sort();
      return JSON.stringify(active(a)) !== JSON.stringify(active(b));
    }
    default:
      return false;
  }
}

// ---------------------------------------------------------------------------------------------------
// Grant
// ---------------------------------------------------------------------------------------------------

/**
 * The remote side of a grant or an update, outside any transaction. A transient failure is recorded on
 * the grant and rethrown (the queue retries); any other failure is returned, to be recorded on the grant
 * with the rest of the outcome.
 */
async function remoteGrantOutcome(
  ctx: Context,
  run: JobRun,
  fetchFn: Fetch,
  benefit: BenefitRow,
  grant: BenefitGrantRow,
): Promise<{ remote?: Props; failure?: Error }> {
  try {
    return { remote: await remoteGrant(ctx, run, fetchFn, benefit, grant) };
  } catch (error) {
    if (error instanceof BenefitRetriableError) {
      await recordFailure(run, grant.id, error);
      throw error;
    }
    return { failure: error as Error };
  }
}

export async function runGrant(ctx: Context, key: GrantKey, run: JobRun, fetchFn: Fetch = fetch): Promise<void> {
  const prepared = await run.transaction(async (tx) => {
    const benefit = await findBenefitById(tx.db, key.benefit_id);
    const customer = await findCustomerById(tx.db, key.customer_id);
    if (!benefit || benefit.deleted_at || !customer || customer.deleted_at) return null;
    // A subscription that stopped being active before this job ran no longer grants anything.
    if (key.subscription_id) {
      const [subscription] = await findSubscriptionsByIds(tx.db, [key.subscription_id]);
      if (!subscription || !GRANTING_STATUSES.includes(subscription.status)) return null;
    }
    const grant = await ensureGrantLocked(tx.db, key, { id: randomUUID(), created_at: tx.clock.now() });
    if (grant.granted_at) return null; // granting twice is harmless: nothing happens
    return { benefit, grant };
  });
  if (!prepared) return;
  const { benefit, grant } = prepared;

  const { remote, failure } = await remoteGrantOutcome(ctx, run, fetchFn, benefit, grant);

  try {
    await run.transaction(async (tx) => {
      const locked = await lockGrant(tx.db, grant.id);
      if (!locked || locked.granted_at) return;
      const now = tx.clock.now();
      let updated: BenefitGrantRow;
      if (failure) {
        updated = await updateGrant(tx.db, locked.id, {
          modified_at: now,
          granted_at: null,
          error: errorOf(failure, now),
        });
      } else {
        const properties = await localGrant(tx, benefit, locked, remote, false);
        updated = await updateGrant(tx.db, locked.id, {
          modified_at: now,
          granted_at: now,
          revoked_at: null,
          error: null,
          properties,
        });
      }
      // As the reference: `benefit_grant.created` is sent for failed grants and re-grants too.
      await announce(tx, 'benefit_grant.created', updated, benefit, locked.properties, !failure);
    });
  } catch (error) {
    await recordFailure(run, grant.id, error as Error);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------
// Revoke
// ---------------------------------------------------------------------------------------------------

export async function runRevoke(ctx: Context, key: GrantKey, run: JobRun, fetchFn: Fetch = fetch): Promise<void> {
  const prepared = await run.transaction(async (tx) => {
    const benefit = await findBenefitById(tx.db, key.benefit_id);
    if (!benefit) return null;
    const grant = await ensureGrantLocked(tx.db, key, { id: randomUUID(), created_at: tx.clock.now() });
    if (grant.revoked_at) return null;
    // The external access stays while another purchase still grants the same benefit (license keys
    // are per grant and always revoked).
    const individually =
      benefit.type === 'license_keys' || (await countGrantedGrants(tx.db, grant.customer_id, benefit.id)) < 2;
    return { benefit, grant, individually };
  });
  if (!prepared) return;
  const { benefit, grant, individually } = prepared;

  if (individually) {
    try {
      await remoteRevoke(ctx, fetchFn, benefit, grant);
    } catch (error) {
      if (error instanceof BenefitRetriableError) {
        await recordFailure(run, grant.id, error);
        throw error;
      }
      // As the reference: an action-required (or refused) revoke is swallowed; the grant is revoked.
      ctx.log.warn({ err: error, grant: grant.id }, 'benefit revoke could not reach the remote service');
    }
  }

  await run.transaction(async (tx) => {
    const locked = await lockGrant(tx.db, grant.id);
    if (!locked || locked.revoked_at) return;
    if (individually) await localRevoke(tx, benefit, locked);
    const now = tx.clock.now();
    const updated = await updateGrant(tx.db, locked.id, { modified_at: now, granted_at: null, revoked_at: now });
    await announce(tx, 'benefit_grant.revoked', updated, benefit, locked.properties, true);
  });
}

// ---------------------------------------------------------------------------------------------------
// Update (the benefit's properties changed)
// ---------------------------------------------------------------------------------------------------

/**
 * `revokeAccountId`: the customer moved the grant to another account; what the previous one received is
 * taken back first (a refusal is logged and the move goes on, as a revoke; a transient failure retries).
 */
export async function runUpdate(
  ctx: Context,
  grantId: string,
  run: JobRun,
  fetchFn: Fetch = fetch,
  revokeAccountId?: string,
): Promise<void> {
  const prepared = await run.transaction(async (tx) => {
    const grant = await lockGrant(tx.db, grantId);
    if (!grant || grant.revoked_at || grant.deleted_at) return null;
    const customer = await findCustomerById(tx.db, grant.customer_id);
    const benefit = await findBenefitById(tx.db, grant.benefit_id);
    if (!customer || customer.deleted_at || !benefit || benefit.deleted_at) return null;
    return { grant, benefit };
  });
  if (!prepared) return;
  const { benefit, grant } = prepared;

  // What the grant gave and no longer should is taken back first: everything the previous account got
  // when the customer moved the grant, or the old role or repository when the seller changed the benefit
  // (the reference's `benefit.updated`). A refusal is logged and the update goes on; a transient failure retries.
  const moved = revokeAccountId && revokeAccountId !== (grant.properties as Props | null)?.account_id;
  if (moved || remoteTargetChanged(benefit, grant)) {
    try {
      await remoteRevoke(ctx, fetchFn, benefit, grant, moved ? revokeAccountId : undefined);
    } catch (error) {
      if (error instanceof BenefitRetriableError) {
        await recordFailure(run, grant.id, error);
        throw error;
      }
      ctx.log.warn({ err: error, grant: grant.id }, 'what the grant gave before could not be taken back');
    }
  }

  const { remote, failure } = await remoteGrantOutcome(ctx, run, fetchFn, benefit, grant);

  await run.transaction(async (tx) => {
    const locked = await lockGrant(tx.db, grant.id);
    if (!locked || locked.revoked_at) return;
    const now = tx.clock.now();
    let updated: BenefitGrantRow;
    if (failure) {
      updated = await updateGrant(tx.db, locked.id, {
        modified_at: now,
        granted_at: null,
        error: errorOf(failure, now),
      });
    } else {
      const properties = await localGrant(tx, benefit, locked, remote, true);
      updated = await updateGrant(tx.db, locked.id, {
        modified_at: now,
        granted_at: locked.granted_at ?? now,
        error: null,
        properties,
      });
    }
    await announce(tx, 'benefit_grant.updated', updated, benefit, locked.properties, true);
  });
}

// ---------------------------------------------------------------------------------------------------
// Cycle (the subscription renewed)
// ---------------------------------------------------------------------------------------------------

/**
 * Cycles a granted grant for the period starting at `periodStart`, once: a second run for the same
 * period (a retried job) does nothing. Without a period (jobs enqueued before periods were recorded)
 * it always cycles.
 */
export async function runCycle(ctx: Context, grantId: string, periodStart?: Date): Promise<void> {
  const grant = await lockGrant(ctx.db, grantId);
  if (!grant || grant.revoked_at || !grant.granted_at || grant.deleted_at) return;
  if (periodStart && !(await claimGrantCycle(ctx.db, grant.id, periodStart, ctx.clock.now()))) return;
  const benefit = await findBenefitById(ctx.db, grant.benefit_id);
  if (!benefit) return;
  let properties = (grant.properties ?? {}) as Props;
  if (benefit.type === 'meter_credit') {
    const p = benefit.properties as StoredProperties['meter_credit'];
    const lastAt = typeof properties.last_credited_at === 'string' ? new Date(properties.last_credited_at) : null;
    if (lastAt && !(await hasMeterResetSince(ctx.db, grant.customer_id, p.meter_id, lastAt))) {
      // What is left of the rollover credits is measured on the period that the reset closes.
      const rollover = p.rollover ? await rolloverUnitsOfWindow(ctx, grant.customer_id, p.meter_id) : 0;
      await systemEvent(ctx, benefit, grant.customer_id, 'meter.reset', { meter_id: p.meter_id });
      if (rollover > 0) {
        await systemEvent(ctx, benefit, grant.customer_id, 'meter.credited', {
          meter_id: p.meter_id,
          units: rollover,
          rollover: true,
        });
      }
    }
    properties = await creditMeter(ctx, benefit, grant.customer_id, p.meter_id, p.units, p.rollover);
  }
  const updated = await updateGrant(ctx.db, grant.id, { modified_at: ctx.clock.now(), properties });
  // A new period of credits changes the customer's meter balances.
  await announce(ctx, 'benefit_grant.cycled', updated, benefit, grant.properties, benefit.type === 'meter_credit');
}
