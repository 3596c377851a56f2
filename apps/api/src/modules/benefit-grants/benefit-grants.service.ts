import type { Context } from '../../platform/context.js';
import { pageOf, type Page } from '../../platform/http/query.js';
import { findBenefitsOfProducts, findGrantCustomers, type BenefitRow } from '../benefits/benefits.repository.js';
import { serializeBenefitGrant, type BenefitGrantWire } from '../benefits/benefits.serializer.js';
import { findSubscriptionsByIds } from '../subscriptions/subscriptions.repository.js';
import { GRANTING_STATUSES, requiresUpdate } from './benefit-grants.engine.js';
import { cycleGrantJob, grantBenefitJob, revokeBenefitJob, updateBenefitGrantsJob } from './benefit-grants.jobs.js';
import {
  findGrantBenefits,
  findGrantsOfScope,
  listVisibleGrants,
  type GrantScope,
} from './benefit-grants.repository.js';
import type { BenefitGrantsListParams } from './benefit-grants.schemas.js';

/** `GET /v1/benefit-grants/`: the grants of the organizations the caller may see, with customer and benefit. */
export async function listGrants(ctx: Context, params: BenefitGrantsListParams): Promise<Page<BenefitGrantWire>> {
  const { rows, total } = await listVisibleGrants(ctx.db, ctx.subject, params);
  const [customers, benefits] = await Promise.all([
    findGrantCustomers(
      ctx.db,
      rows.map((row) => row.customer_id),
    ),
    findGrantBenefits(
      ctx.db,
      rows.map((row) => row.benefit_id),
    ),
  ]);
  const items = rows.map((row) =>
    serializeBenefitGrant(row, customers.get(row.customer_id)!, benefits.get(row.benefit_id)!),
  );
  return pageOf(items, total, params);
}

/**
 * What other modules call, inside their own transaction: each function only enqueues jobs, so the
 * grants happen if and only if the caller's change commits, and off the request.
 */

/** Subscription statuses that hold the benefits, and those that lose them (as the reference). */
const REVOKE_STATUSES = ['past_due', 'canceled', 'unpaid'];

async function enqueueScope(
  ctx: Context,
  job: typeof grantBenefitJob | typeof revokeBenefitJob,
  customerId: string,
  benefitIds: string[],
  scope: GrantScope,
): Promise<void> {
  for (const benefitId of benefitIds) {
    await ctx.jobs.enqueue(job, { customer_id: customerId, benefit_id: benefitId, ...scope });
  }
}

/**
 * Grants every benefit of the product bought: scoped by the subscription when there is one,
 * otherwise by the one-time order. Grants of the scope whose benefit left the product are revoked.
 */
export async function enqueueGrantsForPurchase(
  ctx: Context,
  purchase: { customerId: string; productId: string; subscriptionId: string | null; orderId: string | null },
): Promise<void> {
  const scope: GrantScope = purchase.subscriptionId
    ? { subscription_id: purchase.subscriptionId, order_id: null }
    : { subscription_id: null, order_id: purchase.orderId };
  const benefits = (await findBenefitsOfProducts(ctx.db, [purchase.productId])).get(purchase.productId) ?? [];
  const ids = benefits.map((b: BenefitRow) => b.id);
  await enqueueScope(ctx, grantBenefitJob, purchase.customerId, ids, scope);
  const outdated = (await findGrantsOfScope(ctx.db, scope))
    .filter((g) => g.customer_id === purchase.customerId && !ids.includes(g.benefit_id) && !g.revoked_at)
    .map((g) => g.benefit_id);
  await enqueueScope(ctx, revokeBenefitJob, purchase.customerId, outdated, scope);
}

/**
 * For the subscriptions lifecycle: after any change of a subscription (created, product changed,
 * status changed), grants its product's benefits while it is active or trialing, revokes them once it
 * is past due, canceled or unpaid, and does nothing while it is incomplete.
 */
export async function enqueueGrantsForSubscription(ctx: Context, subscriptionId: string): Promise<void> {
  const [subscription] = await findSubscriptionsByIds(ctx.db, [subscriptionId]);
  if (!subscription) return;
  if (GRANTING_STATUSES.includes(subscription.status)) {
    await enqueueGrantsForPurchase(ctx, {
      customerId: subscription.customer_id,
      productId: subscription.product_id,
      subscriptionId: subscription.id,
      orderId: null,
    });
  } else if (REVOKE_STATUSES.includes(subscription.status)) {
    await enqueueRevocationsForSubscription(ctx, subscriptionId);
  }
}

async function revokeScope(ctx: Context, scope: GrantScope): Promise<void> {
  for (const grant of await findGrantsOfScope(ctx.db, scope)) {
    if (grant.revoked_at) continue;
    await ctx.jobs.enqueue(revokeBenefitJob, {
      customer_id: grant.customer_id,
      benefit_id: grant.benefit_id,
      ...scope,
    });
  }
}

/** For the subscriptions lifecycle: the subscription ended or was revoked; every grant of it goes. */
export async function enqueueRevocationsForSubscription(ctx: Context, subscriptionId: string): Promise<void> {
  await revokeScope(ctx, { subscription_id: subscriptionId, order_id: null });
}

/** For refunds with `revoke_benefits` (one-time orders only): every grant of the order goes. */
export async function enqueueRevocationsForOrder(ctx: Context, orderId: string): Promise<void> {
  await revokeScope(ctx, { subscription_id: null, order_id: orderId });
}

/**
 * For renewals: a `subscription_cycle` order was paid; every granted grant of the subscription cycles,
 * once for the period starting at `periodStart`.
 */
export async function cycleGrantsForSubscription(
  ctx: Context,
  subscriptionId: string,
  periodStart?: Date,
): Promise<void> {
  for (const grant of await findGrantsOfScope(ctx.db, { subscription_id: subscriptionId, order_id: null })) {
    if (!grant.granted_at) continue;
    await ctx.jobs.enqueue(cycleGrantJob, {
      grant_id: grant.id,
      ...(periodStart ? { period_start: periodStart.toISOString() } : {}),
    });
  }
}

/** For benefits: its properties changed; when the change matters to grants, they are updated. */
export async function enqueueGrantUpdates(ctx: Context, previous: BenefitRow, updated: BenefitRow): Promise<void> {
  if (!requiresUpdate(updated.type, previous.properties, updated.properties)) return;
  await ctx.jobs.enqueue(updateBenefitGrantsJob, { benefit_id: updated.id });
}
