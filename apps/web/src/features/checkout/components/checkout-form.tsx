import {
  HTTPValidationError,
  SDKValidationError,
  type CheckoutPublic,
  type CheckoutPublicConfirmed,
} from '@tessera/sdk';
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Loading } from '../../../components/ui/spinner';
import { describeError, otherIssues } from '../../../lib/api-error';
import { formatMoney } from '../../../lib/format';
import { authenticateSimulatedPayment } from '../../../lib/payments/authenticate-payment';
import { useConfirmCheckout } from '../api/confirm-checkout';
import { useCreateConfirmationToken } from '../../../lib/payments/create-confirmation-token';
import { useCheckoutSync } from '../hooks/use-checkout-sync';
import { addressRules, hasStreetParts, type AddressRules } from '../logic/address';
import { checkoutCustomFields, type CheckoutCustomField } from '../logic/custom-fields';
import {
  amountError,
  amountText,
  buildConfirmBody,
  buildSelectionBody,
  buildUpdateBody,
  initialFormState,
  isEmailLocked,
  issuesByField,
  validateForm,
  type CheckoutFormState,
  type FormErrors,
} from '../logic/form';
import { nextAction, paymentMethodForm, type ConfirmationTokenSource } from '../logic/payment';
import { isCheckoutGone } from '../logic/status';
import { confirmLabel } from '../logic/summary';
import { BillingAddressFields } from './billing-address-fields';
import { CustomAmountField } from './custom-amount-field';
import { CustomFieldInput } from './custom-field-input';
import { CustomerFields } from './customer-fields';
import { DiscountCodeField } from './discount-code-field';
import { OrderSummary, OrderTotalBar } from './order-summary';
import { ProductDetails } from './product-details';
import { ProductPicker, type ProductSelection } from './product-picker';
import { SimulatedAuthenticationDialog } from '../../../components/payments/simulated-authentication-dialog';
import { SimulatedCardForm } from '../../../components/payments/simulated-card-form';

// Stripe.js and its React bindings are fetched only for a checkout whose processor is Stripe.
const StripePaymentForm = lazy(() =>
  import('./stripe-payment-form').then((module) => ({ default: module.StripePaymentForm })),
);

const NOT_AUTHENTICATED = 'Your payment was not authenticated, so nothing was charged. Try again, or use another card.';

export interface CheckoutFormProps {
  checkout: CheckoutPublic;
  onConfirmed(confirmed: CheckoutPublicConfirmed): void;
  /** The checkout expired or was completed meanwhile: the page reloads it to show why. */
  onGone(): void;
}

function apiErrors(error: unknown): FormErrors {
  return error ? issuesByField(describeError(error).issues) : {};
}

/** Field paths the form renders, so an API problem with one of them is shown there and not repeated. */
function renderedFields(
  checkout: CheckoutPublic,
  fields: readonly CheckoutCustomField[],
  rules: AddressRules | null,
  options: { isBusiness: boolean; card: boolean },
): string[] {
  const shown = ['customer_email', 'customer_name', 'product_id', 'product_price_id', 'discount_code', 'discount_id'];
  if (options.isBusiness) shown.push('customer_billing_name', 'customer_tax_id');
  if (checkout.product_price.amount_type === 'custom') shown.push('amount');
  if (rules) {
    shown.push('customer_billing_address');
    for (const [part, visible] of Object.entries(rules.shown))
      if (visible) shown.push(`customer_billing_address.${part}`);
  }
  for (const field of fields) shown.push(`custom_field_data.${field.slug}`);
  if (options.card) shown.push('card.number', 'card.exp_month', 'card.exp_year', 'card.cvc');
  return shown;
}

/** Shown at the top of the form only for problems that are not already next to a field. */
function hasUnshownProblem(error: unknown, shown: readonly string[]): boolean {
  if (!error) return false;
  const validation = error instanceof HTTPValidationError || error instanceof SDKValidationError;
  return !validation || otherIssues(error, shown).length > 0;
}

/**
 * The hosted checkout form. What the buyer types is saved as they go (debounced), and the amounts
 * shown are those the API computes from it; paying checks the form, turns the card into a
 * confirmation token, and confirms.
 */
export function CheckoutForm({ checkout, onConfirmed, onGone }: CheckoutFormProps) {
  const fields = useMemo(
    () => checkoutCustomFields(checkout.attached_custom_fields),
    [checkout.attached_custom_fields],
  );
  const [state, setState] = useState(() => initialFormState(checkout, fields));
  const [amountEdited, setAmountEdited] = useState(false);
  const [shownPriceId, setShownPriceId] = useState(checkout.product_price_id);
  if (shownPriceId !== checkout.product_price_id) {
    // Another price brings its own amount (its preset, say): the amount field shows it.
    setShownPriceId(checkout.product_price_id);
    setState({ ...state, amount: amountText(checkout) });
    setAmountEdited(false);
  }

  const sync = useCheckoutSync(checkout.client_secret);
  const createToken = useCreateConfirmationToken();
  const confirmation = useConfirmCheckout();
  const [selection, setSelection] = useState<ProductSelection | null>(null);
  const [discountCode, setDiscountCode] = useState('');
  const [discountError, setDiscountError] = useState<string>();
  const [discountPending, setDiscountPending] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [paying, setPaying] = useState(false);
  const [payError, setPayError] = useState<unknown>(null);
  const [focusRequest, setFocusRequest] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const stripeSource = useRef<ConfirmationTokenSource | null>(null);
  // The simulated bank's challenge, open while a payment waits for the buyer's authentication.
  const [challenge, setChallenge] = useState<((approve: boolean | null) => void) | null>(null);

  const method = paymentMethodForm(checkout);
  const requireCard = method.kind === 'simulated' && checkout.is_payment_form_required;
  const rules = addressRules(checkout, {
    country: state.address.country,
    isBusiness: state.isBusiness,
    streetTyped: hasStreetParts(state.address),
  });
  const showAddress =
    checkout.is_payment_form_required ||
    checkout.require_billing_address ||
    state.isBusiness ||
    state.address.country !== '';
  const shown = renderedFields(checkout, fields, showAddress ? rules : null, {
    isBusiness: state.isBusiness,
    card: requireCard,
  });

  useEffect(() => {
    if (isCheckoutGone(sync.error)) onGone();
  }, [sync.error, onGone]);

  useEffect(() => {
    if (focusRequest > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);

  // Once the buyer tried to pay, the form's own checks follow every keystroke.
  const localErrors = submitted ? validateForm(state, checkout, fields, { requireCard, now: new Date() }) : {};
  // An amount out of bounds is said at once: the summary cannot follow it.
  const amountProblem = amountEdited ? amountError(state, checkout) : undefined;
  if (amountProblem) localErrors.amount = amountProblem;
  const serverErrors = { ...apiErrors(sync.error), ...apiErrors(payError) };
  const errorFor = (field: string) => localErrors[field] ?? serverErrors[field];

  function change(patch: Partial<CheckoutFormState>, save = true) {
    const next = { ...state, ...patch };
    setState(next);
    setPayError(null);
    if (save) sync.schedule(buildUpdateBody(next, checkout, fields));
  }

  function selectProduct(next: ProductSelection) {
    if (next.priceId === checkout.product_price_id) return;
    setSelection(next);
    // A refusal is kept in `sync.error` and shown under the choice.
    sync
      .saveNow(buildSelectionBody(state, checkout, fields, next))
      .catch(() => undefined)
      .finally(() => setSelection(null));
  }

  async function saveDiscountCode(code: string | null) {
    setDiscountPending(true);
    setDiscountError(undefined);
    try {
      await sync.saveNow({ ...buildUpdateBody(state, checkout, fields), discount_code: code });
      setDiscountCode('');
    } catch (error) {
      // Other problems of the same update are shown next to their own fields.
      setDiscountError(apiErrors(error).discount_code);
    } finally {
      setDiscountPending(false);
    }
  }

  function applyDiscount() {
    const code = discountCode.trim();
    if (code === '') setDiscountError('Enter a discount code.');
    else void saveDiscountCode(code);
  }

  async function confirmationToken(): Promise<string> {
    if (method.kind === 'simulated') return createToken.mutateAsync(state.card);
    const source = stripeSource.current;
    if (!source) throw new Error('The card form is still loading. Try again in a moment.');
    return source.createConfirmationToken({ name: state.name.trim(), email: state.email.trim() });
  }

  /** The bank's authentication (3-D Secure) of a payment: Stripe's page, or the simulated processor's dialog. */
  async function authenticate(clientSecret: string): Promise<void> {
    if (method.kind === 'stripe') {
      const source = stripeSource.current;
      if (!source?.handleNextAction) throw new Error('The card form is still loading. Try again in a moment.');
      // A failed or abandoned check is recorded by the next confirm (the payment is then declined).
      return source.handleNextAction(clientSecret).catch(() => undefined);
    }
    const approve = await new Promise<boolean | null>((resolve) => setChallenge(() => resolve));
    setChallenge(null);
    if (approve === null) throw new Error(NOT_AUTHENTICATED);
    await authenticateSimulatedPayment(clientSecret, approve);
  }

  async function pay(event: FormEvent) {
    event.preventDefault();
    if (paying) return;
    setSubmitted(true);
    setPayError(null);
    const errors = validateForm(state, checkout, fields, { requireCard, now: new Date() });
    if (Object.keys(errors).length > 0) {
      setFocusRequest((count) => count + 1);
      return;
    }
    setPaying(true);
    try {
      // Whether a card is needed follows the latest amounts, so pending changes are saved first.
      const latest = (await sync.settle()) ?? checkout;
      const token = latest.is_payment_form_required ? await confirmationToken() : null;
      const body = buildConfirmBody(state, latest, fields, token);
      let result = await confirmation.mutateAsync({ clientSecret: checkout.client_secret, body });
      const action = nextAction(result);
      if (action) {
        // The bank wants the buyer to authenticate; then the same payment is confirmed again.
        await authenticate(action.clientSecret);
        result = await confirmation.mutateAsync({ clientSecret: checkout.client_secret, body });
        if (nextAction(result)) throw new Error(NOT_AUTHENTICATED);
      }
      onConfirmed(result);
    } catch (error) {
      setPayError(error);
      setFocusRequest((count) => count + 1);
      if (isCheckoutGone(error)) onGone();
    } finally {
      setPaying(false);
    }
  }

  const price = checkout.product_price;
  const hasLocalErrors = Object.keys(localErrors).length > 0;
  return (
    <form
      ref={formRef}
      onSubmit={pay}
      noValidate
      aria-label="Checkout"
      className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)] lg:gap-12"
    >
      <div className="space-y-6">
        <ProductDetails checkout={checkout} />
        <ProductPicker
          checkout={checkout}
          selection={selection ?? { productId: checkout.product_id, priceId: checkout.product_price_id }}
          disabled={paying}
          error={errorFor('product_id')}
          onSelect={selectProduct}
        />
        {price.amount_type === 'custom' && (
          <CustomAmountField
            price={price}
            value={state.amount}
            error={errorFor('amount')}
            onChange={(amount) => {
              setAmountEdited(true);
              change({ amount });
            }}
          />
        )}
        <DiscountCodeField
          checkout={checkout}
          code={discountCode}
          error={discountError}
          isPending={discountPending}
          onCodeChange={(code) => {
            setDiscountCode(code);
            setDiscountError(undefined);
          }}
          onApply={applyDiscount}
          onRemove={() => void saveDiscountCode(null)}
        />
        <div className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <OrderSummary checkout={checkout} isUpdating={sync.isSaving || selection !== null} />
        </div>
      </div>

      <div className="space-y-6">
        {hasUnshownProblem(sync.error, shown) && !isCheckoutGone(sync.error) && (
          <ApiErrorAlert error={sync.error} shownFields={shown} />
        )}
        <CustomerFields
          state={state}
          emailLocked={isEmailLocked(checkout)}
          errorFor={errorFor}
          onChange={(patch) => change(patch, !('taxId' in patch))}
          onTaxIdBlur={() => sync.schedule(buildUpdateBody(state, checkout, fields))}
        />
        {showAddress && (
          <BillingAddressFields
            address={state.address}
            rules={rules}
            errorFor={errorFor}
            onChange={(address) => change({ address })}
          />
        )}
        {fields.length > 0 && (
          <div className="space-y-4">
            {fields.map((field) => (
              <CustomFieldInput
                key={field.slug}
                field={field}
                answer={state.answers[field.slug]}
                error={errorFor(`custom_field_data.${field.slug}`)}
                onChange={(answer) => change({ answers: { ...state.answers, [field.slug]: answer } })}
              />
            ))}
          </div>
        )}
        {checkout.is_payment_form_required &&
          (method.kind === 'stripe' ? (
            <Suspense fallback={<Loading label="Loading the card form…" />}>
              <StripePaymentForm publishableKey={method.publishableKey} checkout={checkout} sourceRef={stripeSource} />
            </Suspense>
          ) : (
            <SimulatedCardForm card={state.card} errorFor={errorFor} onChange={(card) => change({ card }, false)} />
          ))}
        {payError !== null && <ApiErrorAlert error={payError} shownFields={shown} />}
        {/* A refused payment says so alone: its message is the one to act on. */}
        {hasLocalErrors && payError === null && (
          <p role="alert" className="text-sm text-red-700">
            Some details are missing or not valid: check the highlighted fields.
          </p>
        )}
        <Button
          type="submit"
          // The main action's focus ring stands out on any background (WCAG 2.4.13 focus appearance).
          className="w-full focus-visible:outline-[3px] focus-visible:outline-offset-[3px] focus-visible:outline-slate-900"
          isPending={paying}
          disabled={selection !== null}
        >
          {paying ? 'Processing…' : confirmLabel(checkout)}
        </Button>
        <SimulatedAuthenticationDialog
          open={challenge !== null}
          amount={formatMoney(checkout.total_amount, checkout.currency)}
          onAnswer={(approve) => challenge?.(approve)}
        />
      </div>
      <OrderTotalBar checkout={checkout} />
    </form>
  );
}
