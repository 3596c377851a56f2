import { randomUUID } from 'node:crypto';
import { generateToken, hashToken, TOKEN_PREFIX } from '../../platform/auth/tokens.js';
import type { Context } from '../../platform/context.js';
import { recordWebhookEvent } from '../../platform/events.js';
import type { Metadata } from '../../platform/http/metadata.js';
import {
  findCustomerByEmail,
  insertCustomer,
  lockCustomerEmail,
  updateCustomer,
  type CustomerRow,
} from '../customers/customers.repository.js';
import { serializeCustomer } from '../customers/customers.serializer.js';
import { insertCustomerSession } from '../customer-sessions/customer-sessions.repository.js';
import { CUSTOMER_SESSION_TTL_MS } from '../customer-sessions/customer-sessions.service.js';
import type { Draft } from './checkouts.changes.js';
import { findOrganizationCustomer } from './checkouts.repository.js';

export interface ResolvedCustomer {
  customer: CustomerRow;
  /**
   * Whether the buyer may get a portal session: the customer was created by this checkout or linked to
   * it by the seller. A customer found by email is someone else's until the buyer proves the address
   * (the portal's email-code sign-in).
   */
  issueCustomerSession: boolean;
}

/**
 * The reference's `_create_or_update_customer`, with its later security rules: the customer linked by
 * the seller, else a live customer of the organization with the email (case-insensitive), else a new
 * one with the checkout's name, billing address and tax id (`customer.created`). An existing customer's
 * details are never overwritten by the buyer's entries (anyone may type any email); the seller's
 * customer metadata is merged in (`customer.updated`), and a linked customer's empty fields are filled.
 */
export async function resolveCustomer(ctx: Context, draft: Draft): Promise<ResolvedCustomer> {
  const row = draft.row;
  const organizationId = row.organization_id;
  const linked = row.customer_id ? await findOrganizationCustomer(ctx.db, organizationId, row.customer_id) : undefined;
  let customer = linked;
  if (!customer) {
    await lockCustomerEmail(ctx.db, organizationId, row.customer_email!);
    customer = await findCustomerByEmail(ctx.db, organizationId, row.customer_email!);
  }
  const now = ctx.clock.now();
  const metadata = (row.customer_metadata ?? {}) as Metadata;
  if (!customer) {
    const created = await insertCustomer(ctx.db, {
      id: randomUUID(),
      created_at: now,
      organization_id: organizationId,
      email: row.customer_email!,
      name: row.customer_name,
      external_id: row.customer_external_id,
      billing_address: row.customer_billing_address ?? null,
      tax_id: row.customer_tax_id ?? null,
      metadata,
    });
    await recordWebhookEvent(ctx, organizationId, 'customer.created', serializeCustomer(created));
    return { customer: created, issueCustomerSession: true };
  }
  const changes = {
    ...(linked && !customer.name && row.customer_name ? { name: row.customer_name } : {}),
    ...(linked && !customer.billing_address && row.customer_billing_address
      ? { billing_address: row.customer_billing_address }
      : {}),
    ...(linked && !customer.tax_id && row.customer_tax_id ? { tax_id: row.customer_tax_id } : {}),
    ...(Object.keys(metadata).length > 0 ? { metadata: { ...(customer.metadata as Metadata), ...metadata } } : {}),
  };
  if (Object.keys(changes).length === 0) return { customer, issueCustomerSession: Boolean(linked) };
  const updated = await updateCustomer(ctx.db, customer.id, { modified_at: now, ...changes });
  await recordWebhookEvent(ctx, organizationId, 'customer.updated', serializeCustomer(updated));
  return { customer: updated, issueCustomerSession: Boolean(linked) };
}

/** A customer portal session for the buyer; the raw token goes back once in the confirmed answer. */
export async function openCustomerSession(ctx: Context, customerId: string): Promise<string> {
  const token = generateToken(TOKEN_PREFIX.customerSession);
  const now = ctx.clock.now();
  await insertCustomerSession(ctx.db, {
    id: randomUUID(),
    created_at: now,
    token_hash: hashToken(token, ctx.config.secret),
    expires_at: new Date(now.getTime() + CUSTOMER_SESSION_TTL_MS),
    customer_id: customerId,
  });
  return token;
}
