import type { Context } from '../../../platform/context.js';
import { ResourceNotFound } from '../../../platform/http/errors.js';
import { pageOf } from '../../../platform/http/query.js';
import type { BenefitGrantRow } from '../../benefits/benefits.repository.js';
import { findGrantCustomers } from '../../benefits/benefits.repository.js';
import { findOrganizationsByIds } from '../../checkouts/checkouts.repository.js';
import { findBenefitsByIds, findOwnedGrant, listOwnedGrants } from './benefit-grants.repository.js';
import type { CustomerBenefitGrantListParams } from './benefit-grants.schemas.js';
import { serializeCustomerBenefitGrant, type CustomerBenefitGrantWire } from './benefit-grants.serializer.js';

/** Serializes a page of grants, loading customers, benefits and organizations once. */
async function serializeGrants(ctx: Context, rows: BenefitGrantRow[]): Promise<CustomerBenefitGrantWire[]> {
  if (rows.length === 0) return [];
  const [customers, benefits] = await Promise.all([
    findGrantCustomers(
      ctx.db,
      rows.map((row) => row.customer_id),
    ),
    findBenefitsByIds(
      ctx.db,
      rows.map((row) => row.benefit_id),
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
