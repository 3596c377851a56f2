import type { Context } from '../../../platform/context.js';
import { ResourceNotFound } from '../../../platform/http/errors.js';
import { pageOf } from '../../../platform/http/query.js';
import { findOrganizationsByIds } from '../../checkouts/checkouts.repository.js';
import { DEFAULT_SUBSCRIPTION_SETTINGS } from '../../organizations/organizations.service.js';
import { findProductRowsByIds } from '../../orders/orders.repository.js';
import type { SubscriptionRow } from '../../subscriptions/subscriptions.repository.js';
import { applySubscriptionUpdate, serializeSubscriptions } from '../../subscriptions/subscriptions.service.js';
import { previewSubscriptionChange } from '../../subscriptions/subscriptions.preview.js';
import type { SubscriptionPreviewWire } from '../../subscriptions/subscriptions.schemas.js';
import { loadProductsWithOrganization } from '../customer-portal.service.js';
import { UpdateSubscriptionNotAllowed } from './subscriptions.errors.js';
import { findOwnedSubscription, listOwnedSubscriptions, lockOwnedSubscription } from './subscriptions.repository.js';
import type { CustomerSubscriptionListParams, CustomerSubscriptionUpdateInput } from './subscriptions.schemas.js';
import { serializeCustomerSubscription, type CustomerSubscriptionWire } from './subscriptions.serializer.js';

async function serializeCustomerSubscriptions(ctx: Context, rows: SubscriptionRow[]) {
  if (rows.length === 0) return [];
  const [subscriptions, productRows] = await Promise.all([
    serializeSubscriptions(ctx, rows),
    findProductRowsByIds(
      ctx.db,
      rows.map((row) => row.product_id),
    ),
  ]);
  const products = await loadProductsWithOrganization(ctx.db, [...productRows.values()]);
  return subscriptions.map((subscription) =>
    serializeCustomerSubscription(subscription, products.get(subscription.product_id)!),
  );
}

async function serializeOne(ctx: Context, row: SubscriptionRow): Promise<CustomerSubscriptionWire> {
  return (await serializeCustomerSubscriptions(ctx, [row]))[0]!;
}

export async function listCustomerSubscriptions(ctx: Context, params: CustomerSubscriptionListParams) {
  const { rows, total } = await listOwnedSubscriptions(ctx.db, ctx.subject, params);
  return pageOf(await serializeCustomerSubscriptions(ctx, rows), total, params);
}

export async function getCustomerSubscription(ctx: Context, id: string): Promise<CustomerSubscriptionWire> {
  const row = await findOwnedSubscription(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return serializeOne(ctx, row);
}

/** Whether the organization lets its customers change plans (`subscription_settings`, on by default). */
async function allowsCustomerUpdates(ctx: Context, organizationId: string): Promise<boolean> {
  const [organization] = await findOrganizationsByIds(ctx.db, [organizationId]);
  const settings = (organization?.subscription_settings ?? {}) as { allow_customer_updates?: boolean };
  return settings.allow_customer_updates ?? DEFAULT_SUBSCRIPTION_SETTINGS.allow_customer_updates;
}

/**
 * A plan change (when the organization allows it, prorated by its default behaviour), a cancellation
 * at the end of the period, or taking one back: the seller's rules apply (subscriptions module), with
 * the cancellation reason recorded as the customer's.
 */
export async function updateCustomerSubscription(
  ctx: Context,
  id: string,
  input: CustomerSubscriptionUpdateInput,
): Promise<CustomerSubscriptionWire> {
  const row = await lockOwnedSubscription(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  if ('product_id' in input) {
    if (!(await allowsCustomerUpdates(ctx, row.organization_id))) throw new UpdateSubscriptionNotAllowed();
    await applySubscriptionUpdate(ctx, row, { product_id: input.product_id });
  } else if (input.cancel_at_period_end === true) {
    await applySubscriptionUpdate(ctx, row, {
      cancel_at_period_end: true,
      customer_cancellation_reason: input.cancellation_reason,
      customer_cancellation_comment: input.cancellation_comment,
    });
  } else if (input.cancel_at_period_end === false) {
    await applySubscriptionUpdate(ctx, row, { cancel_at_period_end: false });
  }
  return getCustomerSubscription(ctx, id);
}

/** `DELETE`: the customer cancels at the end of the current period (the subscription runs until then). */
export async function cancelCustomerSubscription(ctx: Context, id: string): Promise<CustomerSubscriptionWire> {
  return updateCustomerSubscription(ctx, id, { cancel_at_period_end: true });
}

/**
 * The preview of a plan change from the portal (`subscriptions.preview.ts`): what it would charge now and
 * at the next renewal, at the organization's proration behaviour, as the update would bill it. An empty
 * body previews the next renewal as it stands (the portal's "next charge").
 */
export async function previewCustomerSubscription(
  ctx: Context,
  id: string,
  input: { product_id: string } | Record<string, never>,
): Promise<SubscriptionPreviewWire> {
  const row = await findOwnedSubscription(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  if (!('product_id' in input)) return previewSubscriptionChange(ctx, row, {});
  if (!(await allowsCustomerUpdates(ctx, row.organization_id))) throw new UpdateSubscriptionNotAllowed();
  return previewSubscriptionChange(ctx, row, { product_id: input.product_id });
}
