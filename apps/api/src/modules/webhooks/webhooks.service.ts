import { randomUUID } from 'node:crypto';
import { generateToken } from '../../platform/auth/tokens.js';
import type { Context } from '../../platform/context.js';
import { IssueCollector, ResourceNotFound } from '../../platform/http/errors.js';
import { pageOf, type Page } from '../../platform/http/query.js';
import { resolveOrganizationForWrite } from '../organizations/organizations.service.js';
import { deliveryNow, wakeDelivery } from './webhooks.delivery.js';
import {
  findVisibleEndpoint,
  findVisibleEndpointEvent,
  insertEndpoint,
  listVisibleDeliveries,
  listVisibleEndpoints,
  lockVisibleEndpoint,
  makePendingDueNow,
  updateEndpointEvent,
  updateEndpointRow,
} from './webhooks.repository.js';
import type {
  WebhookDeliveryListParams,
  WebhookEndpointCreateInput,
  WebhookEndpointListParams,
  WebhookEndpointUpdateInput,
} from './webhooks.schemas.js';
import {
  serializeDelivery,
  serializeEndpoint,
  type WebhookDeliveryWire,
  type WebhookEndpointWire,
} from './webhooks.serializer.js';
import { addressPolicy, urlProblem } from './webhooks.url-guard.js';

/** Only URLs whose host resolves to addresses the policy allows are accepted (webhooks.url-guard.ts). */
async function checkUrl(ctx: Context, issues: IssueCollector, url: string): Promise<void> {
  const problem = await urlProblem(url, addressPolicy(ctx.config));
  if (problem) issues.add(['body', 'url'], problem, 'url_parsing');
}

const unique = <T>(values: T[]) => [...new Set(values)];

export async function listEndpoints(
  ctx: Context,
  params: WebhookEndpointListParams,
): Promise<Page<WebhookEndpointWire>> {
  const { rows, total } = await listVisibleEndpoints(ctx.db, ctx.subject, params);
  return pageOf(rows.map(serializeEndpoint), total, params);
}

export async function getEndpoint(ctx: Context, id: string): Promise<WebhookEndpointWire> {
  const row = await findVisibleEndpoint(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return serializeEndpoint(row);
}

export async function createEndpoint(ctx: Context, input: WebhookEndpointCreateInput): Promise<WebhookEndpointWire> {
  const organization = await resolveOrganizationForWrite(ctx, input.organization_id);
  const issues = new IssueCollector();
  await checkUrl(ctx, issues, input.url);
  issues.throwIfAny();
  const id = randomUUID();
  await insertEndpoint(ctx.db, {
    id,
    created_at: ctx.clock.now(),
    modified_at: null,
    deleted_at: null,
    organization_id: organization.id,
    url: input.url,
    format: input.format,
    secret: input.secret,
    events: unique(input.events),
    disabled_reason: null,
    failing_since: null,
  });
  return getEndpoint(ctx, id);
}

export async function updateEndpoint(
  ctx: Context,
  id: string,
  input: WebhookEndpointUpdateInput,
): Promise<WebhookEndpointWire> {
  const row = await lockVisibleEndpoint(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  const issues = new IssueCollector();
  if (input.url != null) await checkUrl(ctx, issues, input.url);
  issues.throwIfAny();
  const now = ctx.clock.now();
  await updateEndpointRow(ctx.db, id, {
    modified_at: now,
    ...(input.url != null ? { url: input.url } : {}),
    ...(input.format != null ? { format: input.format } : {}),
    ...(input.secret != null ? { secret: input.secret } : {}),
    ...(input.events != null ? { events: unique(input.events) } : {}),
    ...(input.enabled === false ? { enabled: false, disabled_reason: null } : {}),
    // Re-enabling starts afresh: the failure run is forgotten and queued events are due now.
    ...(input.enabled === true
      ? { enabled: true, disabled_reason: null, failing_since: null, consecutive_failures: 0 }
      : {}),
  });
  if (input.enabled === true && !row.enabled) {
    await makePendingDueNow(ctx.db, id, deliveryNow(ctx));
    await wakeDelivery(ctx, id);
  }
  return getEndpoint(ctx, id);
}

/** The reference's server-generated secrets: `whsec_`, 37 random base62 characters and a checksum. */
const GENERATED_SECRET_PREFIX = 'whsec_';

/**
 * A new secret for the endpoint, generated here and answered this once. Each batch of deliveries
 * reads the endpoint's secret when it is claimed, so every attempt that starts after the commit — new
 * events, and retries and redeliveries of earlier ones — is signed with it; a request already on
 * its way keeps the old signature.
 */
export async function resetEndpointSecret(ctx: Context, id: string): Promise<WebhookEndpointWire> {
  const row = await lockVisibleEndpoint(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  const secret = generateToken(GENERATED_SECRET_PREFIX);
  await updateEndpointRow(ctx.db, id, { secret, modified_at: ctx.clock.now() });
  return { ...(await getEndpoint(ctx, id)), secret };
}

export async function deleteEndpoint(ctx: Context, id: string): Promise<void> {
  const row = await lockVisibleEndpoint(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  const now = ctx.clock.now();
  await updateEndpointRow(ctx.db, id, { deleted_at: now, modified_at: now });
}

export async function listDeliveries(
  ctx: Context,
  params: WebhookDeliveryListParams,
): Promise<Page<WebhookDeliveryWire>> {
  const { rows, total } = await listVisibleDeliveries(ctx.db, ctx.subject, params);
  return pageOf(rows.map(serializeDelivery), total, params);
}

/**
 * Sends the per-endpoint event again, with the same `webhook-id`, even if it was delivered before (as
 * the reference does). It goes back in its place in the endpoint's queue, which makes it next.
 */
export async function redeliverEvent(ctx: Context, id: string): Promise<Record<string, never>> {
  const event = await findVisibleEndpointEvent(ctx.db, ctx.subject, id);
  if (!event) throw new ResourceNotFound();
  const now = ctx.clock.now();
  await updateEndpointEvent(ctx.db, id, {
    status: 'pending',
    attempts: 0,
    next_attempt_at: deliveryNow(ctx),
    modified_at: now,
  });
  await wakeDelivery(ctx, event.endpoint_id);
  return {};
}
