import { useParams, useSearchParams } from 'react-router';
import { Loading } from '../../../components/ui/spinner';
import { CheckoutConfirmation } from '../../../features/checkout/components/checkout-confirmation';
import { CheckoutShell } from '../../../features/checkout/components/checkout-shell';
import { CheckoutUnavailable } from '../../../features/checkout/components/checkout-unavailable';
import { useCheckoutEmbed } from '../../../features/checkout/hooks/use-checkout-embed';
import { useConfirmedCheckout } from '../../../features/checkout/hooks/use-confirmed-checkout';
import { unavailableConfirmation } from '../../../features/checkout/logic/status';

/** `/checkout/:clientSecret/confirmation`: the default success page, reached after confirm. */
export function Component() {
  const { clientSecret = '' } = useParams();
  const [search] = useSearchParams();
  const { query, timedOut } = useConfirmedCheckout(clientSecret);
  const embed = useCheckoutEmbed(search, query.data);
  return (
    <CheckoutShell organization={query.data?.organization} embedded={embed.embedded} onClose={embed.close}>
      {query.isPending ? (
        <Loading label="Loading your order…" />
      ) : query.isError ? (
        <CheckoutUnavailable reason={unavailableConfirmation(query.error)} onRetry={() => void query.refetch()} />
      ) : (
        <CheckoutConfirmation
          checkout={query.data}
          customerSessionToken={search.get('customer_session_token')}
          embedded={embed.embedded}
          timedOut={timedOut}
          postMessage={embed.post}
        />
      )}
    </CheckoutShell>
  );
}
