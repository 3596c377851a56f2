import type { Executor } from '../../platform/db/database.js';
import { findProductRows } from '../checkout-links/checkout-links.repository.js';
import { findDiscountsByIds, type DiscountRow } from '../discounts/discounts.repository.js';
import type { OrganizationRow } from '../organizations/organizations.repository.js';
import { findPricesOfProducts, type PriceWithMeter } from '../products/products.repository.js';
import type { ProductBundle } from '../products/products.serializer.js';
import { loadProductBundles } from '../products/products.service.js';
import { checkoutAmounts, checkoutFlags, type CheckoutAmounts, type CheckoutFlags } from './checkouts.amounts.js';
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
}

/** Loads several checkouts' states with one query per kind of thing. */
export async function loadCheckoutStates(db: Executor, rows: CheckoutRow[]): Promise<CheckoutState[]> {
  if (rows.length === 0) return [];
  const productIds = await findCheckoutProductIds(
    db,
    rows.map((row) => row.id),
  );
  const allProductIds = [...new Set([...rows.map((row) => row.product_id), ...[...productIds.values()].flat()])];
  const [bundles, prices, discounts, organizations] = await Promise.all([
    findProductRows(db, allProductIds).then((products) => loadProductBundles(db, products)),
    findPricesOfProducts(db, [...new Set(rows.map((row) => row.product_id))]),
    findDiscountsByIds(db, [...new Set(rows.map((row) => row.discount_id).filter((id): id is string => id !== null))]),
    findOrganizationsByIds(db, [...new Set(rows.map((row) => row.organization_id))]),
  ]);
  const bundleById = new Map(bundles.map((bundle) => [bundle.product.id, bundle]));
  const discountById = new Map(discounts.map((discount) => [discount.id, discount]));
  const organizationById = new Map(organizations.map((organization) => [organization.id, organization]));
  return rows.map((row) => ({
    row,
    organization: organizationById.get(row.organization_id)!,
    products: (productIds.get(row.id) ?? []).map((id) => bundleById.get(id)!).filter(Boolean),
    product: bundleById.get(row.product_id)!,
    price: (prices.get(row.product_id) ?? []).find((price) => price.id === row.product_price_id)!,
    discount: row.discount_id ? (discountById.get(row.discount_id) ?? null) : null,
  }));
}

export async function loadCheckoutState(db: Executor, row: CheckoutRow): Promise<CheckoutState> {
  return (await loadCheckoutStates(db, [row]))[0]!;
}

/** Amounts and flags of a checkout, from its selected product and price, discount and tax. */
export function computeCheckout(state: Pick<CheckoutState, 'row' | 'product' | 'price' | 'discount'>): {
  amounts: CheckoutAmounts;
  flags: CheckoutFlags;
} {
  const inclusive = (state.row.tax_details as { inclusive?: boolean } | null)?.inclusive ?? false;
  const amounts = checkoutAmounts(state.row.amount, state.discount, state.row.tax_amount, inclusive);
  const flags = checkoutFlags({
    productPrices: state.product.prices,
    price: state.price,
    isRecurring: state.product.product.recurring_interval !== null,
    amount: state.row.amount,
    totalAmount: amounts.total_amount,
    discount: state.discount,
  });
  return { amounts, flags };
}
