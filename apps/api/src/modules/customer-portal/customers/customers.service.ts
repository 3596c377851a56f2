import type { Context } from '../../../platform/context.js';
import type { AddressValue } from '../../../platform/http/countries.js';
import { ResourceNotFound, validationError } from '../../../platform/http/errors.js';
import { detectTaxId, type TaxId } from '../../../platform/http/tax-ids.js';
import type { CustomerRow } from '../../customers/customers.repository.js';
import { applyCustomerUpdate, TAX_ID_INVALID, TAX_ID_NEEDS_COUNTRY } from '../../customers/customers.service.js';
import { findSessionCustomer } from '../customer-portal.repository.js';
import { oauthAccountsByCustomer } from '../oauth-accounts/oauth-accounts.service.js';
import type { CustomerOAuthAccountRow } from '../oauth-accounts/oauth-accounts.repository.js';
import type { CustomerPortalCustomerUpdateInput } from './customers.schemas.js';

export interface PortalCustomerView {
  customer: CustomerRow;
  accounts: CustomerOAuthAccountRow[];
}

async function viewOf(ctx: Context, customer: CustomerRow): Promise<PortalCustomerView> {
  return { customer, accounts: (await oauthAccountsByCustomer(ctx, [customer])).get(customer.id) ?? [] };
}

export async function getPortalCustomer(ctx: Context): Promise<CustomerRow> {
  const customer = await findSessionCustomer(ctx.db, ctx.subject);
  if (!customer) throw new ResourceNotFound();
  return customer;
}

/** The customer with its connected accounts. */
export async function getPortalCustomerView(ctx: Context): Promise<PortalCustomerView> {
  return viewOf(ctx, await getPortalCustomer(ctx));
}

/**
 * The customer edits its own profile with the seller's rules (customers module): a new email must be
 * free in the organization, a tax id must fit the billing country. The portal sends the tax id as a
 * bare number, so its format is found first from the country of the (new or current) address.
 */
export async function updatePortalCustomer(
  ctx: Context,
  input: CustomerPortalCustomerUpdateInput,
): Promise<PortalCustomerView> {
  const current = await findSessionCustomer(ctx.db, ctx.subject, true);
  if (!current) throw new ResourceNotFound();
  const address =
    input.billing_address !== undefined ? input.billing_address : (current.billing_address as AddressValue | null);
  const updated = await applyCustomerUpdate(ctx, current, {
    email: input.email,
    name: input.name,
    billing_address: input.billing_address,
    tax_id: typeof input.tax_id === 'string' ? taxIdOf(input.tax_id, address) : input.tax_id,
  });
  return viewOf(ctx, updated);
}

function taxIdOf(value: string, address: AddressValue | null): TaxId {
  if (address === null) throw validationError(['body', 'billing_address'], TAX_ID_NEEDS_COUNTRY, 'missing');
  const taxId = detectTaxId(value, address.country);
  if (!taxId) throw validationError(['body', 'tax_id'], TAX_ID_INVALID, 'invalid');
  return taxId;
}
