import { useEffect, useState } from 'react';
import { useCheckout } from '../api/get-checkout';
import { CONFIRMATION_POLL_LIMIT_MS, CONFIRMATION_POLL_MS } from '../logic/confirmation';

/**
 * The checkout after confirm, asked again every second while it is `confirmed` (the payment is being
 * completed) until it is `succeeded`, for at most a minute; `timedOut` says the wait was given up.
 */
export function useConfirmedCheckout(clientSecret: string) {
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setTimedOut(true), CONFIRMATION_POLL_LIMIT_MS);
    return () => clearTimeout(timer);
  }, []);
  const [waiting, setWaiting] = useState(true);
  const query = useCheckout(clientSecret, { refetchInterval: waiting && !timedOut ? CONFIRMATION_POLL_MS : false });
  const status = query.data?.status;
  if (waiting && (query.isError || (status !== undefined && status !== 'confirmed'))) setWaiting(false);
  return { query, timedOut: timedOut && status === 'confirmed' };
}
