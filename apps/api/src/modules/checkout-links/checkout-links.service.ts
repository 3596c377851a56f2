import { trialIssue } from '../subscriptions/subscriptions.trials.js';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod/v4';
import { generateToken, TOKEN_PREFIX } from '../../platform/auth/tokens.js';
import type { Context } from '../../platform/context.js';
import { IssueCollector, RequestValidationError, ResourceNotFound, type Loc } from '../../platform/http/errors.js';
import { pageOf } from '../../platform/http/query.js';
import { findDiscountsByIds } from '../discounts/discounts.repository.js';
import { findProductsByIds, findVisibleProduct } from '../products/products.repository.js';
import { loadProductBundles } from '../products/products.service.js';
import {
  findCheckoutLinkCounts,
  findCheckoutLinkProductIds,
  findDiscountForLink,
  findProductIdOfPrice,
  findProductRows,
  findVisibleProductIdOfPrice,
  findVisibleCheckoutLink,
  insertCheckoutLink,
  listVisibleCheckoutLinks,
  lockVisibleCheckoutLink,
  replaceCheckoutLinkProducts,
  updateCheckoutLinkRow,
  type CheckoutLinkRow,
} from './checkout-links.repository.js';
import type {
  CheckoutLink,
  CheckoutLinkCreateInput,
  CheckoutLinkListParams,
  CheckoutLinkUpdateInput,
} from './checkout-links.schemas.js';
import { NO_LINK_COUNTS, serializeCheckoutLink } from './checkout-links.serializer.js';

export type CheckoutLinkWire = z.input<typeof CheckoutLink>;

/** The public URL of a link: opening it creates a fresh checkout and redirects to it. */
export function checkoutLinkUrl(baseUrl: string, clientSecret: string): string {
  return `${baseUrl}/v1/checkout-links/${clientSecret}/redirect`;
}

/** Serializes links with their products and discounts, loading each kind once for the whole page. */
export async function serializeCheckoutLinks(ctx: Context, rows: CheckoutLinkRow[]): Promise<CheckoutLinkWire[]> {
  const productIds = await findCheckoutLinkProductIds(
    ctx.db,
    rows.map((row) => row.id),
  );
  const bundles = await loadProductBundles(
    ctx.db,
    await findProductRows(ctx.db, [...new Set([...productIds.values()].flat())]),
  );
  const bundleById = new Map(bundles.map((bundle) => [bundle.product.id, bundle]));
  const discounts = await findDiscountsByIds(ctx.db, [
    ...new Set(rows.map((row) => row.discount_id).filter((id): id is string => id !== null)),
  ]);
  const discountById = new Map(discounts.map((discount) => [discount.id, discount]));
  const counts = await findCheckoutLinkCounts(
    ctx.db,
    rows.map((row) => row.id),
  );
  return rows.map((row) =>
    serializeCheckoutLink(
      row,
      (productIds.get(row.id) ?? []).map((id) => bundleById.get(id)!).filter(Boolean),
      row.discount_id ? (discountById.get(row.discount_id) ?? null) : null,
      checkoutLinkUrl(ctx.config.baseUrl, row.client_secret),
      counts.get(row.id) ?? NO_LINK_COUNTS,
    ),
  );
}

async function reload(ctx: Context, id: string): Promise<CheckoutLinkWire> {
  const row = await findVisibleCheckoutLink(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return (await serializeCheckoutLinks(ctx, [row]))[0]!;
}

/** Products must be the organization's and not archived; problems are reported at `loc(index)`. */
async function checkProducts(
  ctx: Context,
  issues: IssueCollector,
  organizationId: string,
  ids: readonly string[],
  loc: (index: number) => Loc,
) {
  const found = new Map((await findProductsByIds(ctx.db, organizationId, ids)).map((product) => [product.id, product]));
  ids.forEach((id, index) => {
    const product = found.get(id);
    if (!product) issues.add(loc(index), 'Product does not exist.');
    else if (product.is_archived) issues.add(loc(index), 'Product is archived.');
  });
  return [...new Set(ids)].map((id) => found.get(id)).filter((p): p is NonNullable<typeof p> => Boolean(p));
}

/** A link's discount must apply to every one of its products (redeemability is checked at checkout). */
async function checkDiscount(
  ctx: Context,
  issues: IssueCollector,
  organizationId: string,
  discountId: string,
  products: { id: string; recurring_interval: string | null }[],
): Promise<void> {
  const discount = await findDiscountForLink(ctx.db, organizationId, discountId);
  const applicable =
    discount !== undefined &&
    products.every(
      (product) =>
        (discount.productIds.length === 0 || discount.productIds.includes(product.id)) &&
        (discount.duration !== 'repeating' || product.recurring_interval !== null),
    );
  if (!applicable) issues.add(['body', 'discount_id'], 'Discount does not exist or is not applicable to this product.');
}

/**
 * The organization a new link belongs to: the token's, or for a dashboard user the organization of the
 * products it names (the create payload has no organization_id).
 */
async function linkOrganizationId(ctx: Context, input: CheckoutLinkCreateInput): Promise<string | undefined> {
  if (ctx.subject.kind === 'organization') return ctx.subject.organizationId;
  const productId =
    input.product_id ??
    input.products?.[0] ??
    (input.product_price_id
      ? await findVisibleProductIdOfPrice(ctx.db, ctx.subject, input.product_price_id)
      : undefined);
  return productId ? (await findVisibleProduct(ctx.db, ctx.subject, productId))?.organization_id : undefined;
}

export async function createCheckoutLink(ctx: Context, input: CheckoutLinkCreateInput): Promise<CheckoutLinkWire> {
  const issues = new IssueCollector();
  const organizationId = await linkOrganizationId(ctx, input);
  if (!organizationId) {
    const loc: Loc = input.product_price_id
      ? ['body', 'product_price_id']
      : input.product_id
        ? ['body', 'product_id']
        : ['body', 'products', 0];
    throw new RequestValidationError([
      { loc, msg: input.product_price_id ? 'Price does not exist.' : 'Product does not exist.', type: 'value_error' },
    ]);
  }
  const organization = { id: organizationId };
  let productIds: string[];
  let loc: (index: number) => Loc;
  if (input.product_price_id !== undefined) {
    const productId = await findProductIdOfPrice(ctx.db, organization.id, input.product_price_id);
    if (!productId) issues.add(['body', 'product_price_id'], 'Price does not exist.');
    productIds = productId ? [productId] : [];
    loc = () => ['body', 'product_price_id'];
  } else if (input.product_id !== undefined) {
    productIds = [input.product_id];
    loc = () => ['body', 'product_id'];
  } else {
    productIds = input.products ?? [];
    loc = (index) => ['body', 'products', index];
  }
  const products = await checkProducts(ctx, issues, organization.id, productIds, loc);
  if (input.discount_id) await checkDiscount(ctx, issues, organization.id, input.discount_id, products);
  const trial = trialIssue(
    input.trial_interval,
    input.trial_interval_count,
    products.some((product) => product.recurring_interval !== null),
  );
  if (trial) issues.add(['body', trial.field], trial.message);
  issues.throwIfAny();

  const id = randomUUID();
  await insertCheckoutLink(ctx.db, {
    id,
    created_at: ctx.clock.now(),
    modified_at: null,
    deleted_at: null,
    organization_id: organization.id,
    client_secret: generateToken(TOKEN_PREFIX.checkoutLinkClientSecret),
    payment_processor: input.payment_processor,
    label: input.label ?? null,
    success_url: input.success_url ?? null,
    allow_discount_codes: input.allow_discount_codes,
    require_billing_address: input.require_billing_address,
    discount_id: input.discount_id ?? null,
    metadata: JSON.stringify(input.metadata ?? {}),
    trial_interval: input.trial_interval ?? null,
    trial_interval_count: input.trial_interval_count ?? null,
  });
  await replaceCheckoutLinkProducts(
    ctx.db,
    id,
    products.map((product) => product.id),
  );
  return reload(ctx, id);
}

export async function getCheckoutLink(ctx: Context, id: string): Promise<CheckoutLinkWire> {
  return reload(ctx, id);
}

export async function listCheckoutLinks(ctx: Context, params: CheckoutLinkListParams) {
  const { rows, total } = await listVisibleCheckoutLinks(ctx.db, ctx.subject, params);
  return pageOf(await serializeCheckoutLinks(ctx, rows), total, params);
}

export async function updateCheckoutLink(
  ctx: Context,
  id: string,
  input: CheckoutLinkUpdateInput,
): Promise<CheckoutLinkWire> {
  const current = await lockVisibleCheckoutLink(ctx.db, ctx.subject, id);
  if (!current) throw new ResourceNotFound();
  const issues = new IssueCollector();
  const currentIds = (await findCheckoutLinkProductIds(ctx.db, [id])).get(id) ?? [];
  const productIds = input.products ?? currentIds;
  const products =
    input.products != null
      ? await checkProducts(ctx, issues, current.organization_id, input.products, (index) => [
          'body',
          'products',
          index,
        ])
      : await findProductsByIds(ctx.db, current.organization_id, currentIds);
  const discountId = input.discount_id !== undefined ? input.discount_id : current.discount_id;
  // Re-check the discount when it or the products change: it must still apply to all of them.
  if (discountId && (input.discount_id !== undefined || input.products != null)) {
    await checkDiscount(ctx, issues, current.organization_id, discountId, products);
  }
  const trialChanged = input.trial_interval !== undefined || input.trial_interval_count !== undefined;
  const removed = input.trial_interval === null || input.trial_interval_count === null;
  const trial = {
    trial_interval: removed ? null : (input.trial_interval ?? current.trial_interval),
    trial_interval_count: removed ? null : (input.trial_interval_count ?? current.trial_interval_count),
  };
  if (trialChanged || input.products != null) {
    const issue = trialIssue(
      trial.trial_interval,
      trial.trial_interval_count,
      products.some((product) => product.recurring_interval !== null),
    );
    if (issue) issues.add(['body', issue.field], issue.message);
  }
  issues.throwIfAny();

  await updateCheckoutLinkRow(ctx.db, id, {
    modified_at: ctx.clock.now(),
    ...(input.metadata !== undefined ? { metadata: JSON.stringify(input.metadata) } : {}),
    ...(input.label !== undefined ? { label: input.label } : {}),
    ...(input.allow_discount_codes != null ? { allow_discount_codes: input.allow_discount_codes } : {}),
    ...(input.require_billing_address != null ? { require_billing_address: input.require_billing_address } : {}),
    ...(input.discount_id !== undefined ? { discount_id: input.discount_id } : {}),
    ...(input.success_url !== undefined ? { success_url: input.success_url } : {}),
    ...(trialChanged ? trial : {}),
  });
  if (input.products != null) await replaceCheckoutLinkProducts(ctx.db, id, [...new Set(productIds)]);
  return reload(ctx, id);
}

/** Soft delete: the link's URL stops working; checkouts it opened are unaffected. */
export async function deleteCheckoutLink(ctx: Context, id: string): Promise<void> {
  const current = await lockVisibleCheckoutLink(ctx.db, ctx.subject, id);
  if (!current) throw new ResourceNotFound();
  const now = ctx.clock.now();
  await updateCheckoutLinkRow(ctx.db, id, { deleted_at: now, modified_at: now });
}
