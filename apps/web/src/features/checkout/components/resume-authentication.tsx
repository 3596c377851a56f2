import { PaymentError, type CheckoutPublic, type CheckoutPublicConfirmed } from '@tessera/sdk';
import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { formatMoney } from '../../../lib/format';
import { authenticateSimulatedPayment } from '../../../lib/payments/authenticate-payment';
import { confirmCheckout } from '../api/confirm-checkout';
import { nextAction, paymentMethodForm } from '../logic/payment';
import { isCheckoutGone } from '../logic/status';
import { SimulatedAuthenticationDialog } from '../../../components/payments/simulated-authentication-dialog';

export interface ResumeAuthenticationProps {
  checkout: CheckoutPublic;
  onConfirmed(confirmed: CheckoutPublicConfirmed): void;
  /** The payment ended otherwise (declined, or the checkout changed): the page reloads it. */
  onGone(): void;
}

/**
 * A checkout opened again while its payment waits for the buyer's authentication (3-D Secure): the
 * buyer completes it here. Confirm gives the challenge again (the same payment, nothing new is charged),
 * the bank's step runs (Stripe.js, or the simulated processor's dialog), and confirm records the outcome.
 */
export function ResumeAuthentication({ checkout, onConfirmed, onGone }: ResumeAuthenticationProps) {
  const method = paymentMethodForm(checkout);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [challenge, setChallenge] = useState<((approve: boolean | null) => void) | null>(null);
  const amount = formatMoney(checkout.total_amount, checkout.currency);
  const confirm = () => confirmCheckout({ clientSecret: checkout.client_secret, body: {} });

  async function authenticate(clientSecret: string): Promise<boolean> {
    if (method.kind === 'stripe') {
      const { handleStripeNextAction } = await import('./stripe-payment-form');
      // A failed or abandoned check is recorded by the next confirm (the payment is then declined).
      await handleStripeNextAction(method.publishableKey, clientSecret).catch(() => undefined);
      return true;
    }
    const approve = await new Promise<boolean | null>((resolve) => setChallenge(() => resolve));
    setChallenge(null);
    if (approve === null) return false;
    await authenticateSimulatedPayment(clientSecret, approve);
    return true;
  }

  async function resume() {
    setPending(true);
    setError(null);
    try {
      let result = await confirm();
      const action = nextAction(result);
      if (action) {
        if (!(await authenticate(action.clientSecret))) return;
        result = await confirm();
      }
      if (!nextAction(result)) onConfirmed(result);
    } catch (caught) {
      setError(caught);
      if (isCheckoutGone(caught)) onGone();
    } finally {
      setPending(false);
    }
  }

  return (
    <section
      aria-labelledby="resume-authentication"
      className="mx-auto max-w-lg space-y-4 rounded-lg border border-slate-200 bg-white px-6 py-10 text-center shadow-sm"
    >
      <h1 id="resume-authentication" className="text-2xl font-semibold text-slate-900">
        Confirm your payment
      </h1>
      <p className="text-sm text-slate-700">
        Your bank is waiting for you to confirm the payment of {amount} for {checkout.product.name}. Nothing more is
        charged than this payment.
      </p>
      {error !== null && <ApiErrorAlert error={error} />}
      {error instanceof PaymentError ? (
        // Declined: the checkout is open again, for another card.
        <Button onClick={onGone}>Try another card</Button>
      ) : (
        <Button isPending={pending} onClick={() => void resume()}>
          Confirm the payment
        </Button>
      )}
      <SimulatedAuthenticationDialog
        open={challenge !== null}
        amount={amount}
        onAnswer={(approve) => challenge?.(approve)}
      />
    </section>
  );
}
