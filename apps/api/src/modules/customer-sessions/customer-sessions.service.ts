import { randomUUID } from 'node:crypto';
import { generateToken, hashToken, TOKEN_PREFIX } from '../../platform/auth/tokens.js';
import type { Context } from '../../platform/context.js';
import { validationError } from '../../platform/http/errors.js';
import { findVisibleCustomer, type CustomerKey } from '../customers/customers.repository.js';
import { findVisibleOrganization } from '../organizations/organizations.repository.js';
import { insertCustomerSession } from './customer-sessions.repository.js';
import type { CustomerSessionCreateInput } from './customer-sessions.schemas.js';
import type { CreatedCustomerSession } from './customer-sessions.serializer.js';

/** How long a customer session lasts (reference: `CUSTOMER_SESSION_TTL`). */
export const CUSTOMER_SESSION_TTL_MS = 60 * 60 * 1000;

/** Where the field naming the customer was sent, and the key it names. */
function customerOf(input: CustomerSessionCreateInput): { field: string; key: CustomerKey } {
  if ('customer_id' in input) return { field: 'customer_id', key: { id: input.customer_id } };
  if ('customer_external_id' in input)
    return { field: 'customer_external_id', key: { externalId: input.customer_external_id } };
  return { field: 'external_customer_id', key: { externalId: input.external_customer_id } };
}

/**
 * Opens a customer portal session for a customer the caller may see and that is not deleted. The token
 * is returned once; only its HMAC is stored.
 */
export async function createCustomerSession(
  ctx: Context,
  input: CustomerSessionCreateInput,
): Promise<CreatedCustomerSession> {
  const { field, key } = customerOf(input);
  const customer = await findVisibleCustomer(ctx.db, ctx.subject, key);
  if (!customer) throw validationError(['body', field], 'Customer does not exist.');
  const organization = await findVisibleOrganization(ctx.db, ctx.subject, customer.organization_id);
  if (!organization) throw validationError(['body', field], 'Customer does not exist.');

  const token = generateToken(TOKEN_PREFIX.customerSession);
  const now = ctx.clock.now();
  const session = await insertCustomerSession(ctx.db, {
    id: randomUUID(),
    created_at: now,
    token_hash: hashToken(token, ctx.config.secret),
    expires_at: new Date(now.getTime() + CUSTOMER_SESSION_TTL_MS),
    customer_id: customer.id,
  });
  const customerPortalUrl = `${ctx.config.baseUrl}/portal/${organization.slug}?customer_session_token=${token}`;
  return { session, customer, token, customerPortalUrl };
}
