import { trialIssue } from '../subscriptions/subscriptions.trials.js';
import { randomUUID } from 'node:crypto';
import { generateToken, TOKEN_PREFIX } from '../../platform/auth/tokens.js';
import type { Context } from '../../platform/context.js';
import { recordWebhookEvent } from '../../platform/events.js';
import type { AddressValue } from '../../platform/http/countries.js';
import { IssueCollector } from '../../platform/http/errors.js';
import { onOrganizationClock } from '../../platform/test-clock.js';
import type { TaxId } from '../../platform/http/tax-ids.js';
import { validateCustomFieldData } from '../custom-fields/custom-fields.data.js';
import { findCustomerByExternalId } from '../customers/customers.repository.js';
import type { DiscountRow } from '../discounts/discounts.repository.js';
import type { OrganizationRow } from '../organizations/organizations.repository.js';
import {
  findPricesOfProducts,
  findProductsByIds,
  findVisibleProduct,
  type PriceWithMeter,
} from '../products/products.repository.js';
import type { ProductBundle } from '../products/products.serializer.js';
import { loadProductBundles } from '../products/products.service.js';
import { catalogueVersionOf, keepBundles, keptBundles } from '../products/products.kept.js';
import { findOrganizationSubscription } from '../subscriptions/subscriptions.repository.js';
import { priceAmount, priceCurrency, presetForcesFullAddress } from './checkouts.amounts.js';
import { customFieldsOf } from './checkouts.changes.js';
import {
  findOrganizationCustomer,
  findOrganizationsByIds,
  insertCheckout,
  type NewCheckoutRow,
} from './checkouts.repository.js';
import { checkCustomAmount, checkTaxId, computeTax, defaultPrice, validatedDiscount } from './checkouts.rules.js';
import type { CheckoutCreateInput } from './checkouts.schemas.js';
import { serializeCheckout, type CheckoutWire } from './checkouts.serializer.js';
import { isTrialRedeemed, type CheckoutState } from './checkouts.state.js';

type CheckoutFields = Omit<
  NewCheckoutRow,
  | 'id'
  | 'created_at'
  | 'modified_at'
  | 'organization_id'
  | 'client_secret'
  | 'status'
  | 'expires_at'
  | 'product_id'
  | 'product_price_id'
  | 'amount'
  | 'currency'
  | 'tax_amount'
  | 'discount_id'
  | 'payment_processor_metadata'
>;

export interface NewCheckout {
  organization: OrganizationRow;
  products: ProductBundle[];
  product: ProductBundle;
  price: PriceWithMeter;
  amount: number;
  discount: DiscountRow | null;
  fields: CheckoutFields;
}

/** Inserts a new open checkout (tax computed, `checkout.created` recorded) and returns its state. */
export async function insertNewCheckout(base: Context, input: NewCheckout): Promise<CheckoutState> {
  // Created and expiring on the organization's (test) clock, the clock its public calls are judged by.
  const ctx = await onOrganizationClock(base, input.organization.id);
  const now = ctx.clock.now();
  const address = JSON.parse(input.fields.customer_billing_address ?? 'null') as AddressValue | null;
  const tax = await computeTax(ctx, {
    amount: input.amount,
    currency: priceCurrency(input.price),
    discount: input.discount,
    product: input.product,
    price: input.price,
    address,
    taxId: JSON.parse(input.fields.customer_tax_id ?? 'null') as TaxId | null,
  });
  const id = randomUUID();
  const ttl = ctx.config.checkoutTtlSeconds * 1000;
  const row = await insertCheckout(
    ctx.db,
    {
      ...input.fields,
      id,
      created_at: now,
      modified_at: null,
      organization_id: input.organization.id,
      client_secret: generateToken(TOKEN_PREFIX.checkoutClientSecret),
      status: 'open',
      expires_at: new Date(now.getTime() + ttl),
      payment_processor_metadata: '{}',
      product_id: input.product.product.id,
      product_price_id: input.price.id,
      amount: input.amount,
      currency: priceCurrency(input.price),
      tax_amount: tax.amount,
      tax_details: tax.details ? JSON.stringify(tax.details) : null,
      discount_id: input.discount?.id ?? null,
      require_billing_address: input.fields.require_billing_address || presetForcesFullAddress(address),
    },
    input.products.map((bundle) => bundle.product.id),
  );
  // The state from what the checkout was made of, as loadCheckoutState would read it back.
  const state: CheckoutState = {
    row,
    organization: input.organization,
    products: input.products,
    product: input.product,
    price: input.price,
    discount: input.discount,
    trialRedeemed: false,
  };
  state.trialRedeemed = await isTrialRedeemed(ctx.db, state);
  await recordWebhookEvent(ctx, input.organization.id, 'checkout.created', serializeCheckout(ctx.config, state));
  return state;
}

/** The organization of a new checkout: the token's, or for a user the organization of its first product. */
async function organizationOf(ctx: Context, input: CheckoutCreateInput): Promise<OrganizationRow | undefined> {
  const organizationId =
    ctx.subject.kind === 'organization'
      ? ctx.subject.organizationId
      : (await findVisibleProduct(ctx.db, ctx.subject, input.products[0]!))?.organization_id;
  if (!organizationId) return undefined;
  // An organization token's organization was read with it (route.ts readsTokenOrganization).
  if (ctx.subject.kind === 'organization' && ctx.subject.organization?.id === organizationId) {
    return ctx.subject.organization;
  }
  return (await findOrganizationsByIds(ctx.db, [organizationId]))[0];
}

/**
 * The bundles of the checkout's products (each once, in their order): live products of the organization,
 * else a 422. Kept in memory under the organization's catalogue version (products.kept.ts) when the
 * request's token read it; only products that passed are kept.
 */
async function productsOf(
  ctx: Context,
  issues: IssueCollector,
  organizationId: string,
  productIds: readonly string[],
): Promise<ProductBundle[]> {
  const ids = [...new Set(productIds)];
  const version = catalogueVersionOf(ctx.subject, organizationId);
  const kept = version === undefined ? undefined : keptBundles(organizationId, version, ids);
  if (kept) return kept;
  const found = new Map((await findProductsByIds(ctx.db, organizationId, productIds)).map((p) => [p.id, p]));
  for (const [index, id] of productIds.entries()) {
    const product = found.get(id);
    if (product?.is_archived) issues.add(['body', 'products', index], 'Product is archived.');
    else if (!product) {
      const elsewhere = await findVisibleProduct(ctx.db, ctx.subject, id);
      if (elsewhere) issues.add(['body', 'products'], 'Products must all belong to the same organization.');
      else issues.add(['body', 'products', index], 'Product does not exist.');
    }
  }
  issues.throwIfAny();
  const bundles = await loadProductBundles(
    ctx.db,
    ids.map((id) => found.get(id)!),
    new Map(ids.map((id) => [id, found.get(id)!.prices])),
  );
  if (version !== undefined) keepBundles(organizationId, version, bundles);
  return bundles;
}

/** `POST /v1/checkouts/`: a checkout of the given products, the first one selected. */
export async function createCheckout(ctx: Context, input: CheckoutCreateInput): Promise<CheckoutWire> {
  return serializeCheckout(ctx.config, await insertNewCheckout(ctx, await prepareCheckout(ctx, input)));
}

/**
 * Reads and checks what a new checkout is made of (one 422 with every problem). It takes no lock and
 * writes nothing, so the request runs it before its transaction, which only writes the checkout.
 */
export async function prepareCheckout(ctx: Context, input: CheckoutCreateInput): Promise<NewCheckout> {
  const issues = new IssueCollector();
  const organization = await organizationOf(ctx, input);
  if (!organization) {
    input.products.forEach((_, index) => issues.add(['body', 'products', index], 'Product does not exist.'));
    issues.throwIfAny();
    throw new Error('unreachable');
  }

  const bundles = await productsOf(ctx, issues, organization.id, input.products);
  const product = bundles[0]!;
  const price = defaultPrice(product);
  if (!price) {
    issues.add(['body', 'products', 0], 'Product has no available price.');
    issues.throwIfAny();
  }
  if (input.amount != null) checkCustomAmount(issues, price!, input.amount, ['body', 'amount']);

  let customer = input.customer_id
    ? await findOrganizationCustomer(ctx.db, organization.id, input.customer_id)
    : undefined;
  if (input.customer_id && !customer) issues.add(['body', 'customer_id'], 'Customer does not exist.');
  if (!customer && !input.customer_id && input.customer_external_id)
    customer = await findCustomerByExternalId(ctx.db, organization.id, input.customer_external_id);

  let subscriptionId: string | null = null;
  if (input.subscription_id) {
    const subscription = await findOrganizationSubscription(ctx.db, organization.id, input.subscription_id);
    if (!subscription) issues.add(['body', 'subscription_id'], 'Subscription does not exist.');
    else {
      const prices = (await findPricesOfProducts(ctx.db, [subscription.product_id])).get(subscription.product_id) ?? [];
      if (subscription.amount > 0 || prices.some((p) => !p.is_archived && p.amount_type !== 'free'))
        issues.add(['body', 'subscription_id'], 'Only free subscriptions can be upgraded.');
      subscriptionId = subscription.id;
      customer = (await findOrganizationCustomer(ctx.db, organization.id, subscription.customer_id)) ?? customer;
    }
  }

  const address = input.customer_billing_address ?? ((customer?.billing_address ?? null) as AddressValue | null);
  let taxId = (customer && input.customer_tax_id == null ? (customer.tax_id ?? null) : null) as TaxId | null;
  if (input.customer_tax_id)
    taxId = checkTaxId(issues, input.customer_tax_id, address, {
      taxId: ['body', 'customer_tax_id'],
      address: ['body', 'customer_billing_address'],
    });
  const fields = validateCustomFieldData(customFieldsOf(product), input.custom_field_data, { validateRequired: false });
  for (const issue of fields.issues) issues.add(issue.loc, issue.msg, issue.type);
  const trial = trialIssue(
    input.trial_interval,
    input.trial_interval_count,
    bundles.some((bundle) => bundle.product.recurring_interval !== null),
  );
  if (trial) issues.add(['body', trial.field], trial.message);
  const discount = input.discount_id
    ? await validatedDiscount(ctx, issues, organization.id, product, price!, { id: input.discount_id }, [
        'body',
        'discount_id',
      ])
    : null;
  issues.throwIfAny();

  return {
    organization,
    products: bundles,
    product,
    price: price!,
    amount: priceAmount(price!, input.amount),
    discount,
    fields: {
      success_url: input.success_url ?? null,
      embed_origin: input.embed_origin ?? null,
      allow_discount_codes: input.allow_discount_codes,
      require_billing_address: input.require_billing_address,
      is_business_customer: input.is_business_customer,
      customer_id: customer?.id ?? null,
      customer_external_id: customer?.external_id ?? input.customer_external_id ?? null,
      customer_name: input.customer_name ?? customer?.name ?? null,
      customer_email: customer?.email ?? input.customer_email ?? null,
      customer_ip_address: input.customer_ip_address ?? null,
      customer_billing_name: input.customer_billing_name ?? null,
      customer_billing_address: address ? JSON.stringify(address) : null,
      customer_tax_id: taxId ? JSON.stringify(taxId) : null,
      customer_metadata: JSON.stringify(input.customer_metadata ?? {}),
      metadata: JSON.stringify(input.metadata ?? {}),
      custom_field_data: JSON.stringify(fields.data),
      subscription_id: subscriptionId,
      checkout_link_id: null,
      trial_interval: input.trial_interval ?? null,
      trial_interval_count: input.trial_interval_count ?? null,
    },
  };
}
