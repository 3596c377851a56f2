import type { CustomerPaymentMethodCreateResponse } from '@tessera/sdk';
import { lazy, Suspense, useRef, useState, type FormEvent } from 'react';
import { SimulatedAuthenticationDialog } from '../../../components/payments/simulated-authentication-dialog';
import { SimulatedCardForm } from '../../../components/payments/simulated-card-form';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { Loading } from '../../../components/ui/spinner';
import { fieldError } from '../../../lib/api-error';
import { authenticateSimulatedPayment } from '../../../lib/payments/authenticate-payment';
import { validateCard, type CardEntry, type CardErrors } from '../../../lib/payments/card';
import { createConfirmationToken } from '../../../lib/payments/create-confirmation-token';
import type { ConfirmationTokenSource } from '../../../lib/payments/source';
import { usePaymentMethodCalls } from '../api/add-payment-method';
import { useCustomer } from '../api/get-customer';
import { usePaymentMethodProcessor } from '../api/get-payment-method-processor';

// Stripe.js and its React bindings are fetched only when the server's processor is Stripe.
const StripeElementsForm = lazy(() =>
  import('../../../components/payments/stripe-elements-form').then((module) => ({
    default: module.StripeElementsForm,
  })),
);

const EMPTY_CARD: CardEntry = { number: '', expiry: '', cvc: '' };
const NOT_AUTHENTICATED = 'Your bank did not confirm the card, so it was not saved. Try again, or use another card.';
const CARD_FIELDS = ['card.number', 'card.exp_month', 'card.exp_year', 'card.cvc'];

export interface AddPaymentMethodFormProps {
  /** Where a card that redirects to the bank comes back to (this page). */
  returnUrl: string;
  /** The customer has no saved card yet: the new one is the default whatever is ticked. */
  isFirst: boolean;
  onSaved(): void;
  onCancel(): void;
}

/**
 * A card saved for later with the card form the checkout uses: the simulated processor's, or Stripe's
 * Payment Element. When the bank asks for 3-D Secure, the customer completes it (Stripe.js, or the
 * simulated processor's dialog), then the API finishes saving the card.
 */
export function AddPaymentMethodForm({ returnUrl, isFirst, onSaved, onCancel }: AddPaymentMethodFormProps) {
  const processor = usePaymentMethodProcessor();
  const customer = useCustomer();
  const calls = usePaymentMethodCalls();
  const stripeSource = useRef<ConfirmationTokenSource | null>(null);
  const [card, setCard] = useState<CardEntry>(EMPTY_CARD);
  const [makeDefault, setMakeDefault] = useState(true);
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [challenge, setChallenge] = useState<((approve: boolean | null) => void) | null>(null);

  if (processor.isPending) return <Loading label="Loading the card form…" />;
  if (processor.isError || !processor.data) return <ApiErrorAlert error={processor.error} />;
  const stripeKey = processor.data.processor === 'stripe' ? processor.data.publishable_key : null;
  const localErrors: CardErrors = submitted && !stripeKey ? validateCard(card, new Date()) : {};
  const errorFor = (field: string) => {
    const local = localErrors[field.replace('card.', '') as keyof CardErrors];
    if (local) return local;
    if (field === 'card.expiry') return fieldError(error, 'card.exp_month') ?? fieldError(error, 'card.exp_year');
    return fieldError(error, field);
  };

  async function token(): Promise<string> {
    if (!stripeKey) return createConfirmationToken(card);
    const source = stripeSource.current;
    if (!source) throw new Error('The card form is still loading. Try again in a moment.');
    return source.createConfirmationToken({ name: customer.data?.name ?? '', email: customer.data?.email ?? '' });
  }

  /** The bank's check; false when the customer closed it without answering. */
  async function authenticate(clientSecret: string): Promise<boolean> {
    if (stripeKey) {
      // A failed or abandoned check is recorded by the confirm that follows (the card is refused).
      await stripeSource.current?.handleNextAction?.(clientSecret).catch(() => undefined);
      return true;
    }
    const approve = await new Promise<boolean | null>((resolve) => setChallenge(() => resolve));
    setChallenge(null);
    if (approve === null) return false;
    await authenticateSimulatedPayment(clientSecret, approve);
    return true;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setError(null);
    if (!stripeKey && Object.keys(validateCard(card, new Date())).length > 0) return;
    setPending(true);
    try {
      let saved: CustomerPaymentMethodCreateResponse = await calls.add({
        confirmation_token_id: await token(),
        set_default: isFirst || makeDefault,
        return_url: returnUrl,
      });
      if (saved.status === 'requires_action' && saved.client_secret) {
        if (!(await authenticate(saved.client_secret))) {
          setError(new Error(NOT_AUTHENTICATED));
          return;
        }
        saved = await calls.confirm(saved.id);
        if (saved.status !== 'succeeded') {
          setError(new Error(NOT_AUTHENTICATED));
          return;
        }
      }
      await calls.saved();
      setCard(EMPTY_CARD);
      setSubmitted(false);
      onSaved();
    } catch (caught) {
      setError(caught);
    } finally {
      setPending(false);
    }
  }

  return (
    <Card>
      <CardTitle>Add a card</CardTitle>
      <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
        {stripeKey ? (
          <Suspense fallback={<Loading label="Loading the card form…" />}>
            <StripeElementsForm
              publishableKey={stripeKey}
              options={{ mode: 'setup', currency: 'usd' }}
              sourceRef={stripeSource}
              legend="Card details"
            />
          </Suspense>
        ) : (
          <SimulatedCardForm card={card} errorFor={errorFor} onChange={setCard} />
        )}
        {!isFirst && (
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              className="size-4 rounded border-slate-300"
              checked={makeDefault}
              onChange={(event) => setMakeDefault(event.target.checked)}
            />
            Use this card for my subscriptions from now on
          </label>
        )}
        {error !== null && <ApiErrorAlert error={error} shownFields={stripeKey ? [] : CARD_FIELDS} />}
        <div className="flex gap-2">
          <Button type="submit" isPending={pending}>
            Save card
          </Button>
          <Button type="button" variant="secondary" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
        </div>
      </form>
      <SimulatedAuthenticationDialog
        open={challenge !== null}
        description="Your bank asks you to confirm this card before it is saved for your subscriptions."
        onAnswer={(approve) => challenge?.(approve)}
      />
    </Card>
  );
}
