import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { normalizeState } from '../../platform/http/countries.js';
import { ResourceNotFound, validationError } from '../../platform/http/errors.js';
import { pageOf } from '../../platform/http/query.js';
import { COUNTRIES_WITH_STATES } from '../billing/billing.tax.js';
import { resolveOrganizationForWrite } from '../organizations/organizations.service.js';
import {
  deleteTaxRegistration,
  findVisibleTaxRegistration,
  insertTaxRegistration,
  listVisibleTaxRegistrations,
  lockVisibleTaxRegistration,
  updateTaxRegistration,
  type TaxRegistrationRow,
} from './tax-registrations.repository.js';
import type {
  TaxRegistrationCreateInput,
  TaxRegistrationListParams,
  TaxRegistrationUpdateInput,
} from './tax-registrations.schemas.js';

/**
 * Registrations: one per place (a country, or a US state / Canadian province). A change of rate applies
 * to what is taxed from then on (checkouts, renewals); orders keep the rate they were taxed at.
 */
export async function listTaxRegistrations(ctx: Context, params: TaxRegistrationListParams) {
  const { rows, total } = await listVisibleTaxRegistrations(ctx.db, ctx.subject, params);
  return pageOf(rows, total, params);
}

export async function getTaxRegistration(ctx: Context, id: string): Promise<TaxRegistrationRow> {
  const row = await findVisibleTaxRegistration(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return row;
}

/** The stored state of a place: '' for a whole country, `US-CA` for a state (422 for an unknown one). */
function placeState(country: string, state: string | null | undefined): string {
  if (!state) return '';
  if (!COUNTRIES_WITH_STATES.has(country)) {
    throw validationError(['body', 'state'], 'Only US and CA registrations name a state or province.');
  }
  const code = normalizeState(country, state);
  if (!code) throw validationError(['body', 'state'], `Unknown ${country === 'US' ? 'US state' : 'CA province'}.`);
  return code;
}

export async function createTaxRegistration(
  ctx: Context,
  input: TaxRegistrationCreateInput,
): Promise<TaxRegistrationRow> {
  const organization = await resolveOrganizationForWrite(ctx, input.organization_id);
  const state = placeState(input.country, input.state);
  const row = await insertTaxRegistration(ctx.db, {
    id: randomUUID(),
    created_at: ctx.clock.now(),
    modified_at: null,
    organization_id: organization.id,
    country: input.country,
    state,
    rate_basis_points: input.rate_basis_points,
    label: input.label,
  });
  if (!row) {
    throw validationError(
      ['body', state ? 'state' : 'country'],
      'The organization already has a registration for this place; update its rate instead.',
      'already_exists',
    );
  }
  return row;
}

export async function updateTaxRegistrationById(
  ctx: Context,
  id: string,
  input: TaxRegistrationUpdateInput,
): Promise<TaxRegistrationRow> {
  const row = await lockVisibleTaxRegistration(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return updateTaxRegistration(ctx.db, id, {
    modified_at: ctx.clock.now(),
    ...(input.rate_basis_points !== undefined ? { rate_basis_points: input.rate_basis_points } : {}),
    ...(input.label !== undefined ? { label: input.label } : {}),
  });
}

export async function deleteTaxRegistrationById(ctx: Context, id: string): Promise<void> {
  const row = await lockVisibleTaxRegistration(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  await deleteTaxRegistration(ctx.db, id);
}
