import type { Context } from '../../platform/context.js';
import type { AddressValue } from '../../platform/http/countries.js';
import type { IssueCollector } from '../../platform/http/errors.js';
import type { TaxId } from '../../platform/http/tax-ids.js';
import { validateCustomFieldData, type CustomFieldDataField } from '../custom-fields/custom-fields.data.js';
import type { ProductBundle } from '../products/products.serializer.js';
import { priceAmount, priceCurrency, presetForcesFullAddress } from './checkouts.amounts.js';
import type { CheckoutChanges } from './checkouts.repository.js';
import type { CheckoutChangeInput } from './checkouts.schemas.js';
import {
  checkCustomAmount,
  checkSubscriptionUniqueness,
  checkTaxId,
  computeTax,
  defaultPrice,
  isApplicable,
  isSelectablePrice,
  validatedDiscount,
} from './checkouts.rules.js';
import { isTrialRedeemed, type CheckoutState } from './checkouts.state.js';
import { trialIssue } from '../subscriptions/subscriptions.trials.js';

/** A checkout being changed: its state with a row that the rules rewrite. */
export type Draft = CheckoutState;

export function customFieldsOf(product: ProductBundle): CustomFieldDataField[] {
  return product.customFields.map((attached) => ({
    slug: attached.custom_field.slug,
    type: attached.custom_field.type as CustomFieldDataField['type'],
    properties: attached.custom_field.properties,
    required: attached.required,
  }));
}

export function addressOf(draft: Draft): AddressValue | null {
  return (draft.row.customer_billing_address ?? null) as AddressValue | null;
}

/** Selecting another product (or price) resets the price, amount and currency; an inapplicable discount goes. */
async function applySelection(ctx: Context, draft: Draft, input: CheckoutChangeInput, issues: IssueCollector) {
  let product = draft.product;
  if (input.product_id != null && input.product_id !== draft.product.product.id) {
    const candidate = draft.products.find((bundle) => bundle.product.id === input.product_id);
    if (!candidate) issues.add(['body', 'product_id'], 'Product is not available in this checkout.');
    else if (candidate.product.is_archived) issues.add(['body', 'product_id'], 'Product is archived.');
    else product = candidate;
  }
  let price = product === draft.product ? draft.price : defaultPrice(product);
  if (input.product_price_id != null && input.product_price_id !== draft.price.id) {
    const candidate = product.prices.find((p) => p.id === input.product_price_id);
    // A buyer (or seller) chooses among static prices only: metered prices come with the subscription.
    if (!candidate || !isSelectablePrice(product, candidate))
      issues.add(['body', 'product_price_id'], 'Price is not available in this checkout.');
    else price = candidate;
  }
  if (!price) {
    issues.add(['body', 'product_id'], 'Product has no available price.');
    return;
  }
  if (product !== draft.product || price.id !== draft.price.id) {
    draft.product = product;
    draft.price = price;
    draft.row.product_id = product.product.id;
    draft.row.product_price_id = price.id;
    draft.row.amount = priceAmount(price);
    draft.row.currency = priceCurrency(price);
    if (draft.discount && !(await isApplicable(ctx, draft.discount, product, draft.row.currency))) {
      draft.discount = null;
      draft.row.discount_id = null;
    }
  }
}

function applyCustomer(draft: Draft, input: CheckoutChangeInput, issues: IssueCollector) {
  const row = draft.row;
  if (input.is_business_customer != null) row.is_business_customer = input.is_business_customer;
  if (input.customer_name !== undefined) row.customer_name = input.customer_name;
  // A linked customer keeps their email.
  if (input.customer_email !== undefined && row.customer_id === null) row.customer_email = input.customer_email;
  if (input.customer_billing_name !== undefined) row.customer_billing_name = input.customer_billing_name;
  const addressChanged = input.customer_billing_address !== undefined;
  if (addressChanged) row.customer_billing_address = input.customer_billing_address;
  if (input.customer_tax_id === null) row.customer_tax_id = null;
  else if (input.customer_tax_id !== undefined || (addressChanged && row.customer_tax_id)) {
    const value = input.customer_tax_id ?? (row.customer_tax_id as TaxId)[0];
    row.customer_tax_id = checkTaxId(issues, value, addressOf(draft), {
      taxId: ['body', 'customer_tax_id'],
      address: ['body', 'customer_billing_address'],
    });
  }
}

/**
 * Applies an update from the seller or the buyer to the draft, collecting every problem. The buyer
 * may change the product, price, amount, customer fields, custom field data and discount code; the
 * seller also metadata, discount, flags, success URL and embed origin.
 */
export async function applyChanges(
  ctx: Context,
  draft: Draft,
  input: CheckoutChangeInput,
  mode: 'seller' | 'public',
  issues: IssueCollector,
): Promise<void> {
  await applySelection(ctx, draft, input, issues);
  if (input.amount != null && draft.price.amount_type === 'custom') {
    checkCustomAmount(issues, draft.price, input.amount, ['body', 'amount']);
    draft.row.amount = input.amount;
  }
  applyCustomer(draft, input, issues);

  if (input.custom_field_data !== undefined) {
    // Keys sent replace the stored ones; types only (required fields are enforced at confirm).
    const merged = { ...(draft.row.custom_field_data as Record<string, unknown>), ...input.custom_field_data };
    const result = validateCustomFieldData(customFieldsOf(draft.product), merged, { validateRequired: false });
    for (const issue of result.issues) issues.add(issue.loc, issue.msg, issue.type);
    draft.row.custom_field_data = result.data;
  }

  if (mode === 'seller') {
    if (input.metadata !== undefined) draft.row.metadata = input.metadata;
    if (input.allow_discount_codes != null) draft.row.allow_discount_codes = input.allow_discount_codes;
    if (input.require_billing_address != null) draft.row.require_billing_address = input.require_billing_address;
    if (input.customer_ip_address !== undefined) draft.row.customer_ip_address = input.customer_ip_address;
    if (input.customer_metadata !== undefined) draft.row.customer_metadata = input.customer_metadata ?? {};
    if (input.success_url !== undefined) draft.row.success_url = input.success_url;
    if (input.embed_origin !== undefined) draft.row.embed_origin = input.embed_origin;
    if (input.discount_id !== undefined) await setDiscount(ctx, draft, input.discount_id, 'discount_id', issues);
    if (input.trial_interval !== undefined || input.trial_interval_count !== undefined) {
      // A null removes the checkout's own trial; sending one of the two keeps the other.
      const removed = input.trial_interval === null || input.trial_interval_count === null;
      const interval = removed ? null : (input.trial_interval ?? draft.row.trial_interval);
      const count = removed ? null : (input.trial_interval_count ?? draft.row.trial_interval_count);
      const recurring = draft.products.some((bundle) => bundle.product.recurring_interval !== null);
      const issue = trialIssue(interval, count, recurring);
      if (issue) issues.add(['body', issue.field], issue.message);
      draft.row.trial_interval = interval;
      draft.row.trial_interval_count = count;
    }
  } else if (input.discount_code !== undefined && draft.row.allow_discount_codes) {
    // A code is silently ignored when the checkout does not take codes.
    await setDiscount(ctx, draft, input.discount_code, 'discount_code', issues);
  }
  if (presetForcesFullAddress(addressOf(draft))) draft.row.require_billing_address = true;
}

async function setDiscount(
  ctx: Context,
  draft: Draft,
  value: string | null,
  field: 'discount_id' | 'discount_code',
  issues: IssueCollector,
): Promise<void> {
  if (value === null || value === '') {
    draft.discount = null;
    draft.row.discount_id = null;
    return;
  }
  if (field === 'discount_id' && value === draft.row.discount_id) return;
  const key = field === 'discount_id' ? { id: value } : { code: value };
  const discount = await validatedDiscount(ctx, issues, draft.organization.id, draft.product, draft.price, key, [
    'body',
    field,
  ]);
  if (discount) {
    draft.discount = discount;
    draft.row.discount_id = discount.id;
  }
}

/** Recomputes tax (failures are kept for confirm) and applies the subscription-uniqueness rule. */
export async function finalizeDraft(ctx: Context, draft: Draft): Promise<{ taxFailure?: string }> {
  const tax = await computeTax(ctx, {
    amount: draft.row.amount,
    currency: draft.row.currency,
    discount: draft.discount,
    product: draft.product,
    price: draft.price,
    address: addressOf(draft),
    taxId: (draft.row.customer_tax_id ?? null) as TaxId | null,
    previous: { amount: draft.row.tax_amount, details: draft.row.tax_details },
  });
  draft.row.tax_amount = tax.amount;
  draft.row.tax_details = tax.details;
  // The buyer (email or customer) may have changed: one trial per customer is judged on who buys now.
  draft.trialRedeemed = await isTrialRedeemed(ctx.db, draft);
  await checkSubscriptionUniqueness(ctx, {
    organization: draft.organization,
    product: draft.product,
    isUpgrade: draft.row.subscription_id !== null,
    customerId: draft.row.customer_id,
    email: draft.row.customer_email,
  });
  return tax.failure ? { taxFailure: tax.failure } : {};
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/** The row changes that persist a draft. */
export function draftChanges(draft: Draft, now: Date): CheckoutChanges {
  const row = draft.row;
  return {
    modified_at: now,
    status: row.status,
    product_id: row.product_id,
    product_price_id: row.product_price_id,
    amount: row.amount,
    currency: row.currency,
    tax_amount: row.tax_amount,
    tax_details: json(row.tax_details),
    discount_id: row.discount_id,
    allow_discount_codes: row.allow_discount_codes,
    require_billing_address: row.require_billing_address,
    is_business_customer: row.is_business_customer,
    customer_id: row.customer_id,
    customer_name: row.customer_name,
    customer_email: row.customer_email,
    customer_ip_address: row.customer_ip_address,
    customer_billing_name: row.customer_billing_name,
    customer_billing_address: json(row.customer_billing_address),
    customer_tax_id: json(row.customer_tax_id),
    customer_metadata: JSON.stringify(row.customer_metadata ?? {}),
    metadata: JSON.stringify(row.metadata ?? {}),
    custom_field_data: JSON.stringify(row.custom_field_data ?? {}),
    success_url: row.success_url,
    embed_origin: row.embed_origin,
    trial_interval: row.trial_interval,
    trial_interval_count: row.trial_interval_count,
  };
}
