import type { Context } from '../../../platform/context.js';
import { NotPermitted, ResourceNotFound, validationError } from '../../../platform/http/errors.js';
import { pageOf } from '../../../platform/http/query.js';
import type { BenefitGrantRow } from '../../benefits/benefits.repository.js';
import { findGrantCustomers } from '../../benefits/benefits.repository.js';
import { findOrganizationsByIds } from '../../checkouts/checkouts.repository.js';
import { updateGrant } from '../../benefit-grants/benefit-grants.repository.js';
import { updateGrantJob } from '../../benefit-grants/benefit-grants.jobs.js';
import { findOAuthAccount } from '../oauth-accounts/oauth-accounts.repository.js';
import { oauthAccountsByCustomer } from '../oauth-accounts/oauth-accounts.service.js';
import { findBenefitsByIds, findOwnedGrant, listOwnedGrants, lockOwnedGrant } from './benefit-grants.repository.js';
import type { CustomerBenefitGrantListParams, CustomerBenefitGrantUpdateInput } from './benefit-grants.schemas.js';
import { serializeCustomerBenefitGrant, type CustomerBenefitGrantWire } from './benefit-grants.serializer.js';

/** Serializes a page of grants, loading customers, benefits and organizations once. */
async function serializeGrants(ctx: Context, rows: BenefitGrantRow[]): Promise<CustomerBenefitGrantWire[]> {
  if (rows.length === 0) return [];
  const [customers, benefits, accounts] = await Promise.all([
    findGrantCustomers(
      ctx.db,
      rows.map((row) => row.customer_id),
    ),
    findBenefitsByIds(
      ctx.db,
      rows.map((row) => row.benefit_id),
    ),
    oauthAccountsByCustomer(
      ctx,
      rows.map((row) => ({ id: row.customer_id })),
    ),
  ]);
  const organizations = await findOrganizationsByIds(ctx.db, [
    ...new Set([...benefits.values()].map((benefit) => benefit.organization_id)),
  ]);
  const organizationById = new Map(organizations.map((organization) => [organization.id, organization]));
  return rows.map((grant) => {
    const benefit = benefits.get(grant.benefit_id)!;
    return serializeCustomerBenefitGrant({
      grant,
      customer: customers.get(grant.customer_id)!,
      accounts: accounts.get(grant.customer_id) ?? [],
      benefit,
      organization: organizationById.get(benefit.organization_id)!,
    });
  });
}

export async function listCustomerBenefitGrants(ctx: Context, params: CustomerBenefitGrantListParams) {
  const { rows, total } = await listOwnedGrants(ctx.db, ctx.subject, params);
  return pageOf(await serializeGrants(ctx, rows), total, params);
}

export async function getCustomerBenefitGrant(ctx: Context, id: string): Promise<CustomerBenefitGrantWire> {
  const row = await findOwnedGrant(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return (await serializeGrants(ctx, [row]))[0]!;
}

/**
 * The customer chooses the connected account a Discord or GitHub grant goes to (`account_id`, one of
 * their own connected accounts). The grant keeps the choice and the update job delivers it outside this
 * transaction; a different account than before first loses what the previous one received. The other
 * types take no properties and nothing changes (the reference would refresh a license key's expiry
 * here: a customer must not be able to extend their own key).
 */
export async function updateCustomerBenefitGrant(
  ctx: Context,
  id: string,
  body: CustomerBenefitGrantUpdateInput,
): Promise<CustomerBenefitGrantWire> {
  const grant = await lockOwnedGrant(ctx.db, ctx.subject, id);
  if (!grant) throw new ResourceNotFound();
  if (grant.revoked_at) throw new NotPermitted('Cannot update a revoked benefit grant.');
  const benefit = (await findBenefitsByIds(ctx.db, [grant.benefit_id])).get(grant.benefit_id)!;
  if (body.benefit_type !== benefit.type)
    throw validationError(['body', 'benefit_type'], `The benefit of this grant is of type ${benefit.type}.`);
  if (body.benefit_type === 'discord' || body.benefit_type === 'github_repository') {
    const platform = body.benefit_type === 'discord' ? 'discord' : 'github';
    const account = await findOAuthAccount(ctx.db, grant.customer_id, platform, body.properties.account_id);
    if (!account) throw validationError(['body', 'properties', 'account_id'], 'OAuth account does not exist.');
    const current = (grant.properties ?? {}) as Record<string, unknown>;
    const previous = typeof current.account_id === 'string' ? current.account_id : undefined;
    const updated = await updateGrant(ctx.db, grant.id, {
      modified_at: ctx.clock.now(),
      properties: { ...current, account_id: account.account_id },
    });
    await ctx.jobs.enqueue(updateGrantJob, {
      grant_id: grant.id,
      ...(previous && previous !== account.account_id ? { revoke_account_id: previous } : {}),
    });
    return (await serializeGrants(ctx, [updated]))[0]!;
  }
  return (await serializeGrants(ctx, [grant]))[0]!;
}
