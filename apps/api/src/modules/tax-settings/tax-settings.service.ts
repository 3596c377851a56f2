import type { Context } from '../../platform/context.js';
import { validationError } from '../../platform/http/errors.js';
import { stripeTaxAvailable } from '../../platform/stripe-tax.js';
import { findVisibleOrganization, type OrganizationRow } from '../organizations/organizations.repository.js';
import { resolveOrganizationForWrite } from '../organizations/organizations.service.js';
import { findTaxSettings, saveTaxSettings, type TaxSettingsView } from './tax-settings.repository.js';
import type { TaxSettingsUpdateInput } from './tax-settings.schemas.js';

export interface TaxSettingsResult extends TaxSettingsView {
  organization_id: string;
  stripe_tax_available: boolean;
}

/** The organization a read is for: an organization token's own, or the user's `organization_id`. */
export async function readableOrganization(ctx: Context, organizationId: string | undefined): Promise<OrganizationRow> {
  const id = ctx.subject.kind === 'organization' ? ctx.subject.organizationId : organizationId;
  if (!id) throw validationError(['query', 'organization_id'], 'organization_id is required.', 'missing');
  const organization = await findVisibleOrganization(ctx.db, ctx.subject, id);
  if (!organization) throw validationError(['query', 'organization_id'], 'Organization not found.');
  return organization;
}

function resultOf(ctx: Context, organizationId: string, settings: TaxSettingsView): TaxSettingsResult {
  return { organization_id: organizationId, ...settings, stripe_tax_available: stripeTaxAvailable(ctx.config) };
}

export async function getTaxSettings(ctx: Context, organizationId: string | undefined): Promise<TaxSettingsResult> {
  const organization = await readableOrganization(ctx, organizationId);
  return resultOf(ctx, organization.id, await findTaxSettings(ctx.db, organization.id));
}

/** Stripe Tax can only be turned on where Stripe is configured (422 otherwise, nothing changed). */
export async function updateTaxSettings(ctx: Context, input: TaxSettingsUpdateInput): Promise<TaxSettingsResult> {
  const organization = await resolveOrganizationForWrite(ctx, input.organization_id);
  if (input.stripe_tax_enabled && !stripeTaxAvailable(ctx.config)) {
    throw validationError(
      ['body', 'stripe_tax_enabled'],
      'Stripe Tax needs Stripe: set STRIPE_SECRET_KEY on this installation first.',
    );
  }
  const current = await findTaxSettings(ctx.db, organization.id);
  const next: TaxSettingsView = {
    prices_include_tax: input.prices_include_tax ?? current.prices_include_tax,
    home_country: input.home_country !== undefined ? input.home_country : current.home_country,
    stripe_tax_enabled: input.stripe_tax_enabled ?? current.stripe_tax_enabled,
  };
  await saveTaxSettings(ctx.db, organization.id, next, ctx.clock.now());
  return resultOf(ctx, organization.id, next);
}
