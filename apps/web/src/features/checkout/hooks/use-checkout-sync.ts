import type { CheckoutPublic, CheckoutUpdatePublic } from '@tessera/sdk';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useUpdateCheckout } from '../api/update-checkout';

/** Quiet time after the last keystroke before the checkout is saved (and its amounts recomputed). */
export const SYNC_DEBOUNCE_MS = 500;

export interface CheckoutSync {
  /** Saves this body once typing pauses; a later call replaces it. */
  schedule(body: CheckoutUpdatePublic): void;
  /** Saves this body now (a discount code, a product switch); rejects with the API's error. */
  saveNow(body: CheckoutUpdatePublic): Promise<CheckoutPublic>;
  /** Sends what is scheduled now and waits for every save; the latest checkout the API accepted, if any. */
  settle(): Promise<CheckoutPublic | undefined>;
  /** The error of the latest save, cleared by the next one that succeeds. */
  error: unknown;
  isSaving: boolean;
}

/**
 * Keeps the checkout in step with the form. Updates go one at a time, in order, so the amounts shown
 * are always those of the latest body the API accepted; each answer replaces the cached checkout.
 */
export function useCheckoutSync(clientSecret: string): CheckoutSync {
  const { mutateAsync } = useUpdateCheckout();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const scheduledBody = useRef<CheckoutUpdatePublic | null>(null);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const latest = useRef<CheckoutPublic | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [inFlight, setInFlight] = useState(0);
  const [scheduled, setScheduled] = useState(false);

  const send = useCallback(
    (body: CheckoutUpdatePublic) => {
      setInFlight((count) => count + 1);
      const run = queue.current.then(() => mutateAsync({ clientSecret, body }));
      queue.current = run.catch(() => undefined);
      return run
        .then(
          (checkout) => {
            latest.current = checkout;
            setError(null);
            return checkout;
          },
          (failure: unknown) => {
            setError(failure);
            throw failure;
          },
        )
        .finally(() => setInFlight((count) => count - 1));
    },
    [clientSecret, mutateAsync],
  );

  /** The scheduled body, taken out of the schedule. */
  const takeScheduled = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    const body = scheduledBody.current;
    scheduledBody.current = null;
    setScheduled(false);
    return body;
  }, []);

  const schedule = useCallback(
    (body: CheckoutUpdatePublic) => {
      clearTimeout(timer.current);
      scheduledBody.current = body;
      setScheduled(true);
      timer.current = setTimeout(() => {
        const due = takeScheduled();
        // Its failure is kept in `error` and shown next to the fields it names.
        if (due) send(due).catch(() => undefined);
      }, SYNC_DEBOUNCE_MS);
    },
    [send, takeScheduled],
  );

  const saveNow = useCallback(
    (body: CheckoutUpdatePublic) => {
      // `body` is built from the whole form, so it supersedes anything scheduled.
      takeScheduled();
      return send(body);
    },
    [send, takeScheduled],
  );

  const settle = useCallback(async () => {
    const due = takeScheduled();
    if (due) await send(due).catch(() => undefined);
    await queue.current;
    return latest.current;
  }, [send, takeScheduled]);

  useEffect(() => () => clearTimeout(timer.current), []);

  return { schedule, saveNow, settle, error, isSaving: inFlight > 0 || scheduled };
}
