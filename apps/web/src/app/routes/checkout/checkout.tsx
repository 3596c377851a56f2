import type { CheckoutPublicConfirmed, CheckoutStatus } from '@tessera/sdk';
import { useCallback, useState, type ReactNode } from 'react';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { Loading } from '../../../components/ui/spinner';
import { useCheckout } from '../../../features/checkout/api/get-checkout';
import { CheckoutForm } from '../../../features/checkout/components/checkout-form';
import { CheckoutShell } from '../../../features/checkout/components/checkout-shell';
import { CheckoutUnavailable } from '../../../features/checkout/components/checkout-unavailable';
import { ResumeAuthentication } from '../../../features/checkout/components/resume-authentication';
import { useCheckoutEmbed } from '../../../features/checkout/hooks/use-checkout-embed';
import { confirmationPath } from '../../../features/checkout/logic/confirmation';
import { EMBED_MESSAGE_TYPE, embedSearch } from '../../../features/checkout/logic/embed';
import { unavailableError, unavailableStatus } from '../../../features/checkout/logic/status';

/** `/checkout/:clientSecret`: the hosted checkout (checkout `url`s and checkout links land here). */
export function Component() {
  const { clientSecret = '' } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const checkout = useCheckout(clientSecret);
  const embed = useCheckoutEmbed(search, checkout.data, { announceLoaded: true });
  const { refetch } = checkout;
  // A checkout that is done when opened, or found done while open here, goes to the thank-you page.
  // One confirmed on this page goes there itself, with the customer session (`confirmed`).
  const [openedAs, setOpenedAs] = useState<CheckoutStatus | null>(null);
  if (checkout.data && openedAs === null) setOpenedAs(checkout.data.status);
  const [gone, setGone] = useState(false);
  const reload = useCallback(() => {
    setGone(true);
    void refetch();
  }, [refetch]);
  const kept = embedSearch(search);

  function confirmed(result: CheckoutPublicConfirmed) {
    embed.post({ type: EMBED_MESSAGE_TYPE, event: 'confirmed' });
    navigate(confirmationPath(clientSecret, result.customer_session_token, kept));
  }

  const shell = (children: ReactNode) => (
    <CheckoutShell organization={checkout.data?.organization} embedded={embed.embedded} onClose={embed.close}>
      {children}
    </CheckoutShell>
  );

  if (checkout.isPending) return shell(<Loading label="Loading the checkout…" />);
  if (checkout.isError)
    return shell(<CheckoutUnavailable reason={unavailableError(checkout.error)} onRetry={() => void refetch()} />);
  const { status } = checkout.data;
  // Opened again while the payment waits for the buyer's authentication: finish it here.
  if (status === 'confirmed' && checkout.data.payment_processor_metadata.intent_status === 'requires_action')
    return shell(<ResumeAuthentication checkout={checkout.data} onConfirmed={confirmed} onGone={reload} />);
  if (status === 'confirmed' || status === 'succeeded') {
    const done = gone || openedAs === 'confirmed' || openedAs === 'succeeded';
    return done ? (
      <Navigate to={confirmationPath(clientSecret, null, kept)} replace />
    ) : (
      shell(<Loading label="Completing your order…" />)
    );
  }
  const unavailable = unavailableStatus(status);
  if (unavailable) return shell(<CheckoutUnavailable reason={unavailable} />);
  return shell(<CheckoutForm checkout={checkout.data} onConfirmed={confirmed} onGone={reload} />);
}
