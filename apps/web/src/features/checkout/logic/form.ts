import type { CheckoutConfirmStripe, CheckoutPublic, CheckoutUpdatePublic } from '@tessera/sdk';
import type { FieldIssue } from '../../../lib/api-error';
import { toMajorUnits } from '../../../lib/format';
import {
  addressEntryOf,
  addressErrors,
  addressInput,
  addressRules,
  hasStreetParts,
  type AddressEntry,
} from './address';
import { validateCard, type CardEntry } from '../../../lib/payments/card';
import { customAmountBounds, parseCustomAmount } from './custom-amount';
import {
  customFieldData,
  customFieldErrors,
  initialAnswers,
  type CheckoutCustomField,
  type CustomFieldAnswers,
} from './custom-fields';

/**
 * The checkout form: what the buyer has typed, the checks made before anything is sent, and the
 * bodies of the background update (PATCH) and of confirm built from it. Errors are keyed by the wire
 * path the API uses in its 422s (`customer_email`, `custom_field_data.<slug>`, …) so the API's and the
 * form's own land next to the same field.
 */
export interface CheckoutFormState {
  /** Pay-what-you-want amount as typed, in major units. */
  amount: string;
  email: string;
  name: string;
  isBusiness: boolean;
  businessName: string;
  taxId: string;
  address: AddressEntry;
  answers: CustomFieldAnswers;
  card: CardEntry;
}

export type FormErrors = Record<string, string>;

/** The form as the checkout stands (a reload keeps what was saved). */
export function initialFormState(checkout: CheckoutPublic, fields: readonly CheckoutCustomField[]): CheckoutFormState {
  return {
    amount: amountText(checkout),
    email: checkout.customer_email ?? '',
    name: checkout.customer_name ?? '',
    isBusiness: checkout.is_business_customer,
    businessName: checkout.customer_billing_name ?? '',
    taxId: checkout.customer_tax_id ?? '',
    address: addressEntryOf(checkout.customer_billing_address),
    answers: initialAnswers(fields, checkout.custom_field_data),
    card: { number: '', expiry: '', cvc: '' },
  };
}

/** The checkout's amount as the amount field shows it (pay-what-you-want prices only). */
export function amountText(checkout: Pick<CheckoutPublic, 'amount' | 'currency' | 'product_price'>): string {
  return checkout.product_price.amount_type === 'custom' ? toMajorUnits(checkout.amount, checkout.currency) : '';
}

// The address check the API (and the SDK before sending) applies, so the form never sends what it refuses.
const EMAIL = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export function isEmail(text: string): boolean {
  return EMAIL.test(text.trim());
}

/** A checkout linked to a customer keeps that customer's email: the API ignores another. */
export function isEmailLocked(checkout: Pick<CheckoutPublic, 'customer_id' | 'customer_email'>): boolean {
  return checkout.customer_id !== null && checkout.customer_email !== null;
}

function customAmount(state: CheckoutFormState, checkout: CheckoutPublic) {
  const price = checkout.product_price;
  return price.amount_type === 'custom' ? parseCustomAmount(state.amount, customAmountBounds(price)) : null;
}

/** The problem with the pay-what-you-want amount, shown as the buyer types it. */
export function amountError(state: CheckoutFormState, checkout: CheckoutPublic): string | undefined {
  const amount = customAmount(state, checkout);
  return amount && !amount.ok ? amount.error : undefined;
}

export interface ValidateOptions {
  /** The simulated card form is on the page and a payment method is needed. */
  requireCard: boolean;
  now: Date;
}

/** Everything the buyer must fix before paying, in words. */
export function validateForm(
  state: CheckoutFormState,
  checkout: CheckoutPublic,
  fields: readonly CheckoutCustomField[],
  options: ValidateOptions,
): FormErrors {
  const errors: FormErrors = {};
  if (!isEmailLocked(checkout)) {
    if (state.email.trim() === '') errors.customer_email = 'Enter your email address.';
    else if (!isEmail(state.email)) errors.customer_email = 'Enter a valid email address, such as ada@example.com.';
  }
  if (checkout.is_payment_form_required && state.name.trim() === '') errors.customer_name = 'Enter your name.';
  if (state.isBusiness && state.businessName.trim() === '')
    errors.customer_billing_name = 'Enter the name of your business.';
  const rules = addressRules(checkout, {
    country: state.address.country,
    isBusiness: state.isBusiness,
    streetTyped: hasStreetParts(state.address),
  });
  Object.assign(errors, addressErrors(state.address, rules));
  const amount = amountError(state, checkout);
  if (amount) errors.amount = amount;
  Object.assign(errors, customFieldErrors(fields, state.answers));
  if (options.requireCard) {
    const card = validateCard(state.card, options.now);
    if (card.number) errors['card.number'] = card.number;
    if (card.expiry) errors['card.expiry'] = card.expiry;
    if (card.cvc) errors['card.cvc'] = card.cvc;
  }
  return errors;
}

/** Fields both bodies carry; `draft` leaves out what the API would refuse (a half-typed email, say). */
function buyerFields(
  state: CheckoutFormState,
  checkout: CheckoutPublic,
  fields: readonly CheckoutCustomField[],
  draft: boolean,
): CheckoutUpdatePublic {
  const body: CheckoutUpdatePublic = {
    is_business_customer: state.isBusiness,
    customer_name: state.name.trim() || null,
    custom_field_data: customFieldData(fields, state.answers, { onlyValid: draft }),
  };
  const email = state.email.trim();
  if (!isEmailLocked(checkout) && (!draft || email === '' || isEmail(email))) body.customer_email = email || null;
  const rules = addressRules(checkout, {
    country: state.address.country,
    isBusiness: state.isBusiness,
    streetTyped: hasStreetParts(state.address),
  });
  const address = addressInput(state.address, rules);
  if (address) body.customer_billing_address = address;
  if (state.isBusiness) {
    body.customer_billing_name = state.businessName.trim() || null;
    // A tax ID is checked against the billing country: without one, it would only be refused.
    if (address || !draft) body.customer_tax_id = state.taxId.trim() || null;
  }
  const amount = customAmount(state, checkout);
  if (amount?.ok) body.amount = amount.amount;
  else if (amount && !draft) body.amount = null;
  return body;
}

/** The background update: what the buyer typed so far that the API will take (amounts follow from it). */
export function buildUpdateBody(
  state: CheckoutFormState,
  checkout: CheckoutPublic,
  fields: readonly CheckoutCustomField[],
): CheckoutUpdatePublic {
  return buyerFields(state, checkout, fields, true);
}

/** Switching product or price: the new price sets its own amount, so the typed one is not sent. */
export function buildSelectionBody(
  state: CheckoutFormState,
  checkout: CheckoutPublic,
  fields: readonly CheckoutCustomField[],
  selection: { productId: string; priceId: string },
): CheckoutUpdatePublic {
  const body = buyerFields(state, checkout, fields, true);
  delete body.amount;
  return { ...body, product_id: selection.productId, product_price_id: selection.priceId };
}

/** Confirm: everything as typed (checked by `validateForm` first) and the payment method's token. */
export function buildConfirmBody(
  state: CheckoutFormState,
  checkout: CheckoutPublic,
  fields: readonly CheckoutCustomField[],
  confirmationTokenId: string | null,
): CheckoutConfirmStripe {
  const body: CheckoutConfirmStripe = buyerFields(state, checkout, fields, false);
  if (confirmationTokenId) body.confirmation_token_id = confirmationTokenId;
  return body;
}

/**
 * Where an API problem is shown: the field the form renders for it. A missing address is shown at
 * the country, the expiry's month and year at the one expiry field, a discount that stopped being
 * redeemable at the code.
 */
export function formFieldOf(field: string): string {
  if (field === 'customer_billing_address') return 'customer_billing_address.country';
  if (field === 'card.exp_month' || field === 'card.exp_year') return 'card.expiry';
  if (field === 'discount_id') return 'discount_code';
  if (field === 'product_price_id') return 'product_id';
  return field;
}

/** API issues keyed by the form field that shows them (the first issue of a field wins). */
export function issuesByField(issues: readonly FieldIssue[]): FormErrors {
  const errors: FormErrors = {};
  for (const issue of issues) {
    const field = formFieldOf(issue.field);
    if (field && !(field in errors)) errors[field] = issue.message;
  }
  return errors;
}
