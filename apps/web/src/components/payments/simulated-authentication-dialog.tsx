import { useState } from 'react';
import { Button } from '../ui/button';
import { Dialog, DialogActions } from '../ui/dialog';

export interface SimulatedAuthenticationDialogProps {
  open: boolean;
  /** The amount being authenticated, as shown on the pay button. */
  amount?: string;
  /** What the bank asks to confirm, when it is not a payment (a card saved for later). */
  description?: string;
  /** The buyer's answer; closing the dialog counts as not completing it. */
  onAnswer(approve: boolean | null): Promise<void> | void;
}

/**
 * The simulated processor's stand-in for the bank's 3-D Secure page (test card 4000 0025 0000 3155): the
 * buyer completes or fails the authentication, as Stripe's test authentication page offers.
 */
export function SimulatedAuthenticationDialog({
  open,
  amount,
  description,
  onAnswer,
}: SimulatedAuthenticationDialogProps) {
  const [answering, setAnswering] = useState<boolean | null>(null);
  async function answer(approve: boolean | null) {
    setAnswering(approve);
    try {
      await onAnswer(approve);
    } finally {
      setAnswering(null);
    }
  }
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && answering === null) void answer(null);
      }}
      title={amount !== undefined ? 'Confirm your payment' : 'Confirm your card'}
      description={description ?? `Your bank asks you to confirm this payment of ${amount ?? ''}.`}
    >
      <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-xs text-amber-950">
        Test mode: this stands in for your bank’s security check (3-D Secure). No real payment is taken.
      </p>
      <DialogActions>
        <Button variant="secondary" isPending={answering === false} onClick={() => void answer(false)}>
          Fail authentication
        </Button>
        <Button isPending={answering === true} onClick={() => void answer(true)}>
          Complete authentication
        </Button>
      </DialogActions>
    </Dialog>
  );
}
