import { revokeCustomerGrantsJob } from '../benefit-grants/benefit-grants.jobs.js';
import { cancelCustomerSubscriptionsJob } from '../subscriptions/subscriptions.jobs.js';
import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { recordWebhookEvent } from '../../platform/events.js';
import type { AddressValue } from '../../platform/http/countries.js';
import { IssueCollector, ResourceNotFound, validationError } from '../../platform/http/errors.js';
import { pageOf } from '../../platform/http/query.js';
import { validateTaxId, type TaxId, type TaxIdFormat } from '../../platform/http/tax-ids.js';
import { resolveOrganizationForWrite } from '../organizations/organizations.service.js';
import { endCustomerSessions } from '../customer-sessions/customer-sessions.repository.js';
import {
  exportVisibleCustomers,
  findCustomerByEmail,
  lockCustomerEmail,
  findCustomerByExternalId,
  findVisibleCustomer,
  insertCustomer,
  listVisibleCustomers,
  lockVisibleCustomer,
  uniqueViolationField,
  updateCustomer as updateCustomerRow,
  type CustomerChanges,
  type CustomerKey,
  type CustomerRow,
} from './customers.repository.js';
import type {
  CustomerCreateInput,
  CustomerExportParams,
  CustomerListParams,
  CustomerUpdateInput,
} from './customers.schemas.js';
import { CSV_BATCH, csvStream, type ExportCursor } from '../../platform/http/csv.js';
import { CUSTOMER_EXPORT_HEADER, customerExportCells, type CustomerExportRow } from './customers.export.js';
import { serializeCustomer } from './customers.serializer.js';
import { customerStateOf } from './customers.state.js';

export const EMAIL_TAKEN = 'A customer with this email address already exists.';
export const EXTERNAL_ID_TAKEN = 'A customer with this external ID already exists.';
export const EXTERNAL_ID_IMMUTABLE = 'Customer external ID cannot be updated.';
export const TAX_ID_NEEDS_COUNTRY = 'Country is required to validate tax ID.';
export const TAX_ID_INVALID = 'Invalid tax ID.';

/**
 * A tax id is validated against the billing address's country (reference: `validate_tax_id`): without
 * an address it is a `missing` billing address; a format the country does not use, or a value that
 * does not fit it, is an invalid tax id. Returns the pair to store.
 */
function checkTaxId(
  issues: IssueCollector,
  taxId: readonly [string, TaxIdFormat] | null,
  address: AddressValue | null,
): TaxId | null {
  if (taxId === null) return null;
  if (address === null) {
    issues.add(['body', 'billing_address'], TAX_ID_NEEDS_COUNTRY, 'missing');
    return null;
  }
  const validated = validateTaxId(taxId[0], taxId[1], address.country);
  if (!validated) issues.add(['body', 'tax_id'], TAX_ID_INVALID, 'invalid');
  return validated;
}

/** Two writes racing for one email or external id: the unique index decides, the loser gets the same 422. */
function rethrowUniqueViolation(error: unknown): never {
  if (isUniqueViolation(error)) {
    const field = uniqueViolationField(error);
    if (field === 'email') throw validationError(['body', 'email'], EMAIL_TAKEN);
    if (field === 'external_id') throw validationError(['body', 'external_id'], EXTERNAL_ID_TAKEN);
  }
  throw error;
}

async function recordChange(
  ctx: Context,
  type: 'customer.created' | 'customer.updated' | 'customer.deleted',
  row: CustomerRow,
): Promise<void> {
  await recordWebhookEvent(ctx, row.organization_id, type, serializeCustomer(row));
  // As the reference: every change of the customer is also a change of its state.
  await recordWebhookEvent(ctx, row.organization_id, 'customer.state_changed', await customerStateOf(ctx.db, row));
}

export async function createCustomer(ctx: Context, input: CustomerCreateInput): Promise<CustomerRow> {
  const organization = await resolveOrganizationForWrite(ctx, input.organization_id);
  // Concurrent creations with one email wait for each other, so the loser sees the winner's row.
  await lockCustomerEmail(ctx.db, organization.id, input.email);
  const issues = new IssueCollector();
  if (await findCustomerByEmail(ctx.db, organization.id, input.email)) issues.add(['body', 'email'], EMAIL_TAKEN);
  if (input.external_id != null && (await findCustomerByExternalId(ctx.db, organization.id, input.external_id))) {
    issues.add(['body', 'external_id'], EXTERNAL_ID_TAKEN);
  }
  const billingAddress = input.billing_address ?? null;
  const taxId = checkTaxId(issues, input.tax_id ?? null, billingAddress);
  issues.throwIfAny();

  let row: CustomerRow;
  try {
    row = await insertCustomer(ctx.db, {
      id: randomUUID(),
      created_at: ctx.clock.now(),
      organization_id: organization.id,
      email: input.email,
      name: input.name ?? null,
      external_id: input.external_id ?? null,
      billing_address: billingAddress,
      tax_id: taxId,
      metadata: input.metadata ?? {},
    });
  } catch (error) {
    rethrowUniqueViolation(error);
  }
  await recordChange(ctx, 'customer.created', row);
  return row;
}

export async function getCustomer(ctx: Context, key: CustomerKey): Promise<CustomerRow> {
  const row = await findVisibleCustomer(ctx.db, ctx.subject, key);
  if (!row) throw new ResourceNotFound();
  return row;
}

/** The customer's state: active subscriptions and granted benefits (customers.state.ts). */
export async function getCustomerState(ctx: Context, key: CustomerKey) {
  return customerStateOf(ctx.db, await getCustomer(ctx, key));
}

/** `GET /v1/customers/export`: a CSV streamed as it is read, a batch of customers per statement. */
export function exportCustomers(ctx: Context, params: CustomerExportParams) {
  return csvStream<CustomerExportRow & ExportCursor>(
    CUSTOMER_EXPORT_HEADER,
    (after) => exportVisibleCustomers(ctx.db, ctx.subject, params.organization_id, after, CSV_BATCH),
    customerExportCells,
  );
}

export async function listCustomers(ctx: Context, params: CustomerListParams) {
  const { rows, total } = await listVisibleCustomers(ctx.db, ctx.subject, params);
  return pageOf(rows, total, params);
}

/**
 * Only the fields sent change. A new email (compared case-insensitively, as the reference does) must
 * be free in the organization and resets `email_verified`; `external_id` can be set once (by id only) and never changed; a tax id is
 * (re)validated whenever it or the billing address changes; an explicit null clears `name`,
 * `billing_address` (unless a tax id still needs its country) and `tax_id`.
 */
export async function updateCustomer(ctx: Context, key: CustomerKey, input: CustomerUpdateInput): Promise<CustomerRow> {
  const current = await lockVisibleCustomer(ctx.db, ctx.subject, key);
  if (!current) throw new ResourceNotFound();
  return applyCustomerUpdate(ctx, current, input);
}

/**
 * The rules of `updateCustomer` on a customer the caller has already found and locked: seller calls
 * and the customer portal (where the customer edits its own profile) validate alike.
 */
export async function applyCustomerUpdate(
  ctx: Context,
  current: CustomerRow,
  input: CustomerUpdateInput,
): Promise<CustomerRow> {
  const issues = new IssueCollector();
  const changes: CustomerChanges = { modified_at: ctx.clock.now() };

  if (input.email != null && input.email.toLowerCase() !== current.email.toLowerCase()) {
    if (await findCustomerByEmail(ctx.db, current.organization_id, input.email, current.id)) {
      issues.add(['body', 'email'], EMAIL_TAKEN);
    }
    changes.email = input.email;
    changes.email_verified = false;
  }

  if (input.external_id !== undefined && input.external_id !== current.external_id) {
    if (current.external_id !== null || input.external_id === null) {
      issues.add(['body', 'external_id'], EXTERNAL_ID_IMMUTABLE);
    } else if (await findCustomerByExternalId(ctx.db, current.organization_id, input.external_id)) {
      issues.add(['body', 'external_id'], EXTERNAL_ID_TAKEN);
    } else {
      changes.external_id = input.external_id;
    }
  }

  if (input.name !== undefined) changes.name = input.name;
  if (input.metadata !== undefined) changes.metadata = input.metadata;

  const address =
    input.billing_address !== undefined ? input.billing_address : (current.billing_address as AddressValue | null);
  const taxId = input.tax_id !== undefined ? input.tax_id : (current.tax_id as TaxId | null);
  if (input.billing_address !== undefined) changes.billing_address = input.billing_address;
  if (input.tax_id !== undefined || input.billing_address !== undefined) {
    const validated = checkTaxId(issues, taxId, address);
    if (input.tax_id !== undefined || validated !== null) changes.tax_id = validated;
  }
  issues.throwIfAny();

  let updated: CustomerRow;
  try {
    updated = await updateCustomerRow(ctx.db, current.id, changes);
  } catch (error) {
    rethrowUniqueViolation(error);
  }
  await recordChange(ctx, 'customer.updated', updated);
  return updated;
}

/**
 * Soft delete: the customer disappears from every read (404), its email and external id become free
 * for new customers, and its portal sessions end.
 */
export async function deleteCustomer(ctx: Context, key: CustomerKey): Promise<void> {
  const current = await lockVisibleCustomer(ctx.db, ctx.subject, key);
  if (!current) throw new ResourceNotFound();
  const now = ctx.clock.now();
  const deleted = await updateCustomerRow(ctx.db, current.id, { modified_at: now, deleted_at: now });
  await endCustomerSessions(ctx.db, current.id, now);
  // As the reference: the subscriptions end and every benefit is revoked, in jobs after commit.
  await ctx.jobs.enqueue(cancelCustomerSubscriptionsJob, { customer_id: current.id });
  await ctx.jobs.enqueue(revokeCustomerGrantsJob, { customer_id: current.id });
  await recordChange(ctx, 'customer.deleted', deleted);
}
