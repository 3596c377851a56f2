import type { Executor } from '../../platform/db/database.js';
import { findProductRows } from '../checkout-links/checkout-links.repository.js';
import { findDiscountsByIds, type DiscountRow } from '../discounts/discounts.repository.js';
import type { OrganizationRow } from '../organizations/organizations.repository.js';
import { findPricesOfProducts, type PriceWithMeter } from '../products/products.repository.js';
import type { ProductBundle } from '../products/products.serializer.js';
import { loadProductBundles } from '../products/products.service.js';
import { hasRedeemedTrial } from '../subscriptions/subscriptions.trials.repository.js';
import { checkoutTrial } from '../subscriptions/subscriptions.trials.js';
import { checkoutAmounts, checkoutFlags, type CheckoutAmounts, type CheckoutFlags } from './checkouts.amounts.js';
import { keepBundles, keptBundles } from '../products/products.kept.js';
import { findCheckoutProductIds, findOrganizationsByIds, type CheckoutRow } from './checkouts.repository.js';

/** A checkout with everything its rules and wire shapes need. */
export interface CheckoutState {
  row: CheckoutRow;
  organization: OrganizationRow;
  /** The products it offers, in order (archived ones included: they show as archived). */
  products: ProductBundle[];
  /** The selected product. */
  product: ProductBundle;
  /** The selected price (possibly archived since). */
  price: PriceWithMeter;
  discount: DiscountRow | null;
  /** The buyer already had a trial of the selected product, which gives one per customer. */
  trialRedeemed: boolean;
}

/**
 * Loads several checkouts' states with one query per kind of thing. The organizations are read first:
 * with their catalogue versions, the checkouts' products come from the node's memory when every one is
 * kept there (products.kept.ts), and the offered products' ids, the discounts and the trial question are
 * then all that is read. Outside a transaction the bundles read are kept; inside one they are not (its own
 * uncommitted writes to a product would be kept under a version that does not count them).
 */
export async function loadCheckoutStates(db: Executor, rows: CheckoutRow[]): Promise<CheckoutState[]> {
  if (rows.length === 0) return [];
  const organizations = await findOrganizationsByIds(db, [...new Set(rows.map((row) => row.organization_id))]);
  const organizationById = new Map(organizations.map((organization) => [organization.id, organization]));
  const offeredIds = await findCheckoutProductIds(
    db,
    rows.map((row) => row.id),
  );
  const discountIds = [...new Set(rows.map((row) => row.discount_id).filter((id): id is string => id !== null))];
  const [products, discounts] = await Promise.all([
    keptProductsOf(rows, organizationById, offeredIds) ?? readProductsOf(db, rows, organizationById, offeredIds),
    findDiscountsByIds(db, discountIds),
  ]);
  const discountById = new Map(discounts.map((discount) => [discount.id, discount]));
  const states = rows.map((row, index) => ({
    row,
    organization: organizationById.get(row.organization_id)!,
    ...products[index]!,
    discount: row.discount_id ? (discountById.get(row.discount_id) ?? null) : null,
    trialRedeemed: false,
  }));
  for (const state of states) state.trialRedeemed = await isTrialRedeemed(db, state);
  return states;
}

/** What a checkout offers and selected: its products' bundles and the selected price. */
type CheckoutProducts = Pick<CheckoutState, 'products' | 'product' | 'price'>;

/** Each checkout's products from the node's memory; undefined unless every one (and the selected price) is kept. */
function keptProductsOf(
  rows: readonly CheckoutRow[],
  organizationById: ReadonlyMap<string, OrganizationRow>,
  offeredIds: ReadonlyMap<string, readonly string[]>,
): CheckoutProducts[] | undefined {
  const kept: CheckoutProducts[] = [];
  for (const row of rows) {
    const organization = organizationById.get(row.organization_id)!;
    const ids = offeredIds.get(row.id) ?? [];
    const bundles = keptBundles(organization.id, organization.catalogue_version, [
      ...new Set([row.product_id, ...ids]),
    ]);
    const product = bundles?.[0];
    const price = product?.prices.find((candidate) => candidate.id === row.product_price_id);
    if (!bundles || !product || !price) return undefined;
    const byId = new Map(bundles.map((bundle) => [bundle.product.id, bundle]));
    kept.push({ products: ids.map((id) => byId.get(id)!), product, price });
  }
  return kept;
}

/** Each checkout's products from the database, their bundles kept when read outside a transaction. */
async function readProductsOf(
  db: Executor,
  rows: readonly CheckoutRow[],
  organizationById: ReadonlyMap<string, OrganizationRow>,
  offeredIds: ReadonlyMap<string, readonly string[]>,
): Promise<CheckoutProducts[]> {
  // The offered products (archived ones too: they show as archived) and the selected one.
  const ids = new Set([...rows.map((row) => row.product_id), ...[...offeredIds.values()].flat()]);
  const productById = new Map((await findProductRows(db, [...ids])).map((product) => [product.id, product]));
  // Every price of the products (archived ones too: a checkout keeps the price it selected).
  const prices = await findPricesOfProducts(db, [...productById.keys()]);
  const bundles = await loadProductBundles(db, [...productById.values()], prices);
  if (!db.isTransaction) {
    for (const organization of organizationById.values()) {
      keepBundles(
        organization.id,
        organization.catalogue_version,
        bundles.filter((bundle) => bundle.product.organization_id === organization.id),
      );
    }
  }
  const bundleById = new Map(bundles.map((bundle) => [bundle.product.id, bundle]));
  return rows.map((row) => ({
    products: (offeredIds.get(row.id) ?? []).map((id) => bundleById.get(id)!).filter(Boolean),
    product: bundleById.get(row.product_id)!,
    price: (prices.get(row.product_id) ?? []).find((price) => price.id === row.product_price_id)!,
  }));
}

/**
 * Whether the checkout's buyer already had a trial of its selected product (only asked of a checkout
 * that would give a trial of a product that gives one per customer, for a buyer it knows).
 */
export async function isTrialRedeemed(db: Executor, state: Pick<CheckoutState, 'row' | 'product'>): Promise<boolean> {
  const product = state.product.product;
  const offered = checkoutTrial({
    recurring: product.recurring_interval !== null && state.row.subscription_id === null,
    product: { interval: product.trial_interval, count: product.trial_interval_count },
    checkout: { interval: state.row.trial_interval, count: state.row.trial_interval_count },
    redeemed: false,
  }).trial;
  if (!offered || !product.trial_once_per_customer) return false;
  return hasRedeemedTrial(db, product.id, state.row.customer_id, state.row.customer_email, state.row.id);
}

/** The trial the checkout gives, and why it gives none when the buyer already had one. */
export function trialOf(state: Pick<CheckoutState, 'row' | 'product' | 'trialRedeemed'>) {
  const product = state.product.product;
  return checkoutTrial({
    // An upgrade of a free subscription is paid from now: no trial.
    recurring: product.recurring_interval !== null && state.row.subscription_id === null,
    product: { interval: product.trial_interval, count: product.trial_interval_count },
    checkout: { interval: state.row.trial_interval, count: state.row.trial_interval_count },
    redeemed: state.trialRedeemed,
  });
}

export async function loadCheckoutState(db: Executor, row: CheckoutRow): Promise<CheckoutState> {
  return (await loadCheckoutStates(db, [row]))[0]!;
}

/** Amounts and flags of a checkout, from its selected product and price, discount and tax. */
export function computeCheckout(
  state: Pick<CheckoutState, 'row' | 'product' | 'price' | 'discount'> & { trialRedeemed?: boolean },
): {
  amounts: CheckoutAmounts;
  flags: CheckoutFlags;
  trial: ReturnType<typeof trialOf>;
} {
  const trial = trialOf({ ...state, trialRedeemed: state.trialRedeemed ?? false });
  const inclusive = (state.row.tax_details as { inclusive?: boolean } | null)?.inclusive ?? false;
  const amounts = checkoutAmounts(state.row.amount, state.discount, state.row.tax_amount, inclusive);
  const flags = checkoutFlags({
    productPrices: state.product.prices,
    price: state.price,
    isRecurring: state.product.product.recurring_interval !== null,
    amount: state.row.amount,
    totalAmount: amounts.total_amount,
    discount: state.discount,
    trial: trial.trial ? { requiresPaymentMethod: state.product.product.trial_requires_payment_method } : null,
  });
  return { amounts, flags, trial };
}
