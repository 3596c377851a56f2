import type { CheckoutPublic } from '@tessera/sdk';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Loading } from '../../../components/ui/spinner';
import { formatDate, formatMoney, formatMoneyPerInterval } from '../../../lib/format';
import { usePurchase, type Purchase } from '../api/get-purchase';
import {
  checkoutPath,
  customerPortalUrl,
  portalSignInPath,
  sellerSuccessUrl,
  SUCCESS_REDIRECT_SECONDS,
} from '../logic/confirmation';
import { trialWords } from '../logic/summary';
import { EMBED_MESSAGE_TYPE, type CheckoutEmbedMessage } from '../logic/embed';
import { unavailableStatus } from '../logic/status';
import { CheckoutUnavailable } from './checkout-unavailable';

export interface CheckoutConfirmationProps {
  checkout: CheckoutPublic;
  /**
   * From confirm: opens the customer portal signed in. Absent when the buyer's email belonged to an
   * existing customer (the portal then opens from a sign-in link sent to that address).
   */
  customerSessionToken: string | null;
  embedded: boolean;
  /** The payment has been confirming for longer than the page waits. */
  timedOut: boolean;
  postMessage(message: CheckoutEmbedMessage): void;
  /** Leaves the page (the seller's success URL); replaceable in tests. */
  navigateAway?: (url: string) => void;
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const titleId = useId();
  return (
    <section
      aria-labelledby={titleId}
      className="mx-auto max-w-lg space-y-4 rounded-lg border border-slate-200 bg-white px-6 py-10 text-center shadow-sm"
    >
      <h1 id={titleId} className="text-2xl font-semibold text-slate-900">
        {title}
      </h1>
      {children}
    </section>
  );
}

/** After paying: waiting for the payment, then the thank-you with the portal and the seller's page. */
export function CheckoutConfirmation({
  checkout,
  customerSessionToken,
  embedded,
  timedOut,
  postMessage,
  navigateAway = (url) => window.location.assign(url),
}: CheckoutConfirmationProps) {
  const succeeded = checkout.status === 'succeeded';
  const successUrl = sellerSuccessUrl(checkout);
  const announced = useRef(false);
  useEffect(() => {
    if (!succeeded || announced.current) return;
    announced.current = true;
    postMessage({
      type: EMBED_MESSAGE_TYPE,
      event: 'success',
      successURL: checkout.success_url,
      redirect: successUrl !== null,
    });
  }, [succeeded, checkout.success_url, successUrl, postMessage]);

  // Embedded, the seller's page decides where to go (it got `successURL` in the message).
  const redirects = succeeded && successUrl !== null && !embedded;
  const [secondsLeft, setSecondsLeft] = useState(SUCCESS_REDIRECT_SECONDS);
  useEffect(() => {
    if (!redirects) return;
    if (secondsLeft <= 0) {
      navigateAway(successUrl);
      return;
    }
    const timer = setTimeout(() => setSecondsLeft((seconds) => seconds - 1), 1000);
    return () => clearTimeout(timer);
  }, [redirects, secondsLeft, successUrl, navigateAway]);

  const unavailable = unavailableStatus(checkout.status);
  if (unavailable) return <CheckoutUnavailable reason={unavailable} />;

  if (checkout.status === 'open')
    return (
      <Panel title="This checkout has not been paid yet">
        <p className="text-sm text-slate-700">Nothing was charged. You can go back and complete it.</p>
        <Button asChild>
          <Link to={checkoutPath(checkout.client_secret)}>Back to the checkout</Link>
        </Button>
      </Panel>
    );

  if (checkout.status === 'confirmed')
    return (
      <Panel title="Confirming your payment">
        {timedOut ? (
          <p role="status" className="text-sm text-slate-700">
            This is taking longer than usual. Your payment is still being processed: you can close this page, and your
            purchase will appear in the customer portal once it is complete.
          </p>
        ) : (
          <div className="flex justify-center">
            <Loading label="Waiting for the payment to go through…" />
          </div>
        )}
      </Panel>
    );

  const portal = customerSessionToken ? customerPortalUrl(checkout.organization.slug, customerSessionToken) : null;
  const subscription = checkout.product.recurring_interval !== null;
  const trial = checkout.active_trial_interval !== null;
  return (
    <Panel title={trial ? 'Your free trial has started!' : 'Thank you for your purchase!'}>
      <p className="text-sm text-slate-700">
        {trial
          ? `${trialWords(checkout)}. Nothing was charged today.`
          : subscription
            ? `Your subscription to ${checkout.product.name} is active.`
            : `Your order of ${checkout.product.name} is complete.`}
      </p>
      <PurchaseSummary checkout={checkout} customerSessionToken={customerSessionToken} />
      <p className="text-sm text-slate-700">
        Your orders, receipts and access are in the customer portal of {checkout.organization.name}.
      </p>
      {!portal && (
        <p className="text-sm text-slate-700">
          For your security, the portal does not open from this page: sign in there with your email address, and we send
          you a code.
        </p>
      )}
      <div className="flex flex-wrap justify-center gap-3">
        {portal ? (
          <Button asChild>
            <a href={portal}>Open the customer portal</a>
          </Button>
        ) : (
          <Button asChild variant={successUrl ? 'secondary' : 'primary'}>
            <a href={portalSignInPath(checkout.organization.slug)}>Sign in to the customer portal</a>
          </Button>
        )}
        {successUrl && (
          <Button asChild variant={portal ? 'secondary' : 'primary'}>
            <a href={successUrl}>Continue</a>
          </Button>
        )}
      </div>
      {redirects && (
        <p role="status" className="text-xs text-slate-600">
          Taking you back to {new URL(successUrl).host} in {secondsLeft} s.
        </p>
      )}
    </Panel>
  );
}

function SummaryRow({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-1.5">
      <dt className="text-slate-600">{term}</dt>
      <dd className="text-right font-medium text-slate-900">{children}</dd>
    </div>
  );
}

/** The portal page of the order, where its receipt is, opened with the buyer's session. */
function receiptPath(slug: string, orderId: string, token: string): string {
  const query = new URLSearchParams({ customer_session_token: token });
  return `/portal/${encodeURIComponent(slug)}/orders/${encodeURIComponent(orderId)}?${query.toString()}`;
}

/**
 * What was bought and paid, from the checkout; with the buyer's session, what the purchase gave: the
 * next charge of a subscription, license keys, files to download, and the receipt.
 */
function PurchaseSummary({
  checkout,
  customerSessionToken,
}: {
  checkout: CheckoutPublic;
  customerSessionToken: string | null;
}) {
  const benefits = checkout.product.benefits;
  const expected =
    benefits.filter((benefit) => benefit.type === 'license_keys').length +
    benefits.filter((benefit) => benefit.type === 'downloadables').length;
  const { data } = usePurchase(customerSessionToken, checkout.id, expected);
  const purchase: Purchase | undefined = data;
  const order = purchase?.order ?? null;
  const subscription = purchase?.subscription ?? null;
  const interval = checkout.product.recurring_interval;
  const paid = order?.total_amount ?? checkout.total_amount;
  const currency = order?.currency ?? checkout.currency;
  const renews = subscription && subscription.status === 'active' && !subscription.cancel_at_period_end;
  // A trial charges nothing now (the checkout's amounts are the first period's, charged at its end).
  const trial = checkout.active_trial_interval !== null;
  return (
    <div className="space-y-4 text-left text-sm">
      <dl aria-label="Your purchase" className="divide-y divide-slate-100 rounded-md border border-slate-200 px-4 py-2">
        <SummaryRow term="Purchased">
          {checkout.product.name}
          {interval && subscription ? ` · ${formatMoneyPerInterval(subscription.amount, currency, interval)}` : ''}
        </SummaryRow>
        <SummaryRow term="Amount paid">{paid === 0 || trial ? 'Free' : formatMoney(paid, currency)}</SummaryRow>
        {renews && <SummaryRow term="Next charge">{formatDate(subscription.current_period_end)}</SummaryRow>}
        {trial && subscription?.trial_end && (
          <SummaryRow term="Free trial ends">{formatDate(subscription.trial_end)}</SummaryRow>
        )}
      </dl>
      {purchase && purchase.licenseKeys.length > 0 && (
        <section aria-label="License keys">
          <h2 className="mb-1 font-medium text-slate-900">
            {purchase.licenseKeys.length === 1 ? 'Your license key' : 'Your license keys'}
          </h2>
          <ul className="space-y-1">
            {purchase.licenseKeys.map((key) => (
              <li key={key.id}>
                <code className="rounded bg-slate-100 px-2 py-1 font-mono text-xs break-all text-slate-900">
                  {key.key}
                </code>
              </li>
            ))}
          </ul>
        </section>
      )}
      {purchase && purchase.downloadables.length > 0 && (
        <section aria-label="Downloads">
          <h2 className="mb-1 font-medium text-slate-900">Your downloads</h2>
          <ul className="space-y-1">
            {purchase.downloadables.map((downloadable) => (
              <li key={downloadable.id}>
                <a
                  className="text-blue-700 underline hover:text-blue-800"
                  href={downloadable.file.download.url}
                  download={downloadable.file.name}
                >
                  {downloadable.file.name}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
      {trial && !checkout.is_payment_form_required && (
        <p>No card was asked for: add one in the customer portal before the trial ends to keep your subscription.</p>
      )}
      {order && customerSessionToken && (
        <p>
          <a
            className="text-blue-700 underline hover:text-blue-800"
            href={receiptPath(checkout.organization.slug, order.id, customerSessionToken)}
          >
            View your receipt
          </a>
        </p>
      )}
    </div>
  );
}
