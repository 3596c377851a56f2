import { z } from 'zod/v4';
import type { Context } from '../../platform/context.js';
import { IssueCollector, ResourceNotFound, validationError } from '../../platform/http/errors.js';
import type { Metadata } from '../../platform/http/metadata.js';
import { onOrganizationClock } from '../../platform/test-clock.js';
import {
  findCheckoutLinkByClientSecret,
  findCheckoutLinkProductIds,
  recordCheckoutLinkVisit,
} from '../checkout-links/checkout-links.repository.js';
import type { DiscountRow } from '../discounts/discounts.repository.js';
import { findProductsByIds } from '../products/products.repository.js';
import { loadProductBundles } from '../products/products.service.js';
import { priceAmount } from './checkouts.amounts.js';
import { insertNewCheckout } from './checkouts.create.js';
import { findOrganizationsByIds } from './checkouts.repository.js';
import { checkCustomAmount, validatedDiscount } from './checkouts.rules.js';
import { checkoutUrl } from './checkouts.serializer.js';

/** Query parameters copied into the checkout's metadata (unless the link's metadata has the key). */
export const LINK_METADATA_PARAMS = [
  'reference_id',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
];

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
const Email = z.email().max(320);

/**
 * Opening a checkout link creates a fresh checkout for the link's live products (the first one and its
 * first price selected), with the link's flags, success URL, metadata and discount (ignored when no
 * longer valid), and answers the hosted checkout URL with the incoming query (minus `embed_origin`).
 *
 * Query prefills applied on the server (invalid values are ignored, never an error): `customer_email`,
 * `customer_name`, `discount_code` (when the link takes codes), `amount` (pay-what-you-want, within
 * bounds); `reference_id` and `utm_*` go into the metadata; `embed_origin` becomes the checkout's.
 */
export async function openCheckoutFromLink(
  base: Context,
  clientSecret: string,
  query: Record<string, string | string[]>,
): Promise<string> {
  const link = await findCheckoutLinkByClientSecret(base.db, clientSecret);
  if (!link) throw new ResourceNotFound();
  // The buyer acts for the seller's organization: its (test) clock sets the expiry and judges discounts.
  const ctx = await onOrganizationClock(base, link.organization_id);
  // Counted in this transaction: an open that fails (no live product) is not a visit.
  await recordCheckoutLinkVisit(ctx.db, link.id, ctx.clock.now().toISOString().slice(0, 10));
  const ids = (await findCheckoutLinkProductIds(ctx.db, [link.id])).get(link.id) ?? [];
  const rows = await findProductsByIds(ctx.db, link.organization_id, ids);
  const live = ids
    .map((id) => rows.find((row) => row.id === id))
    .filter((row): row is NonNullable<typeof row> => Boolean(row && !row.is_archived && row.prices.length > 0));
  if (live.length === 0) throw validationError(['body', 'products'], 'No valid products.');
  const bundles = await loadProductBundles(ctx.db, live);
  const product = bundles[0]!;
  const price = product.prices[0]!;
  const organization = (await findOrganizationsByIds(ctx.db, [link.organization_id]))[0]!;

  // Link discount and query prefills are best effort: problems are dropped silently.
  const ignored = new IssueCollector();
  const discountBy = async (key: { id: string } | { code: string }): Promise<DiscountRow | null> =>
    validatedDiscount(ctx, ignored, organization.id, product, price, key, ['query']);
  const code = single(query.discount_code);
  let discount = link.discount_id ? await discountBy({ id: link.discount_id }) : null;
  if (code && link.allow_discount_codes) discount = (await discountBy({ code })) ?? discount;

  const requested = Number(single(query.amount));
  let amount = priceAmount(price);
  if (price.amount_type === 'custom' && Number.isSafeInteger(requested)) {
    const bounds = new IssueCollector();
    checkCustomAmount(bounds, price, requested, ['query', 'amount']);
    if (bounds.issues.length === 0) amount = requested;
  }

  const metadata = { ...((link.metadata ?? {}) as Metadata) };
  for (const key of LINK_METADATA_PARAMS) {
    const value = single(query[key]);
    if (value && !(key in metadata)) metadata[key] = value.slice(0, 500);
  }
  const email = Email.safeParse(single(query.customer_email));
  const name = single(query.customer_name)?.trim().slice(0, 256);

  const state = await insertNewCheckout(ctx, {
    organization,
    products: bundles,
    product,
    price,
    amount,
    discount,
    fields: {
      success_url: link.success_url,
      embed_origin: single(query.embed_origin) ?? null,
      allow_discount_codes: link.allow_discount_codes,
      require_billing_address: link.require_billing_address,
      is_business_customer: false,
      customer_id: null,
      customer_external_id: null,
      customer_name: name || null,
      customer_email: email.success ? email.data : null,
      customer_ip_address: ctx.request?.ip ?? null,
      customer_billing_name: null,
      customer_billing_address: null,
      customer_tax_id: null,
      customer_metadata: '{}',
      metadata: JSON.stringify(metadata),
      custom_field_data: '{}',
      subscription_id: null,
      checkout_link_id: link.id,
      trial_interval: link.trial_interval,
      trial_interval_count: link.trial_interval_count,
    },
  });

  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (key === 'embed_origin') continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, item);
  }
  const search = params.toString();
  return `${checkoutUrl(ctx.config, state.row.client_secret)}${search ? `?${search}` : ''}`;
}
