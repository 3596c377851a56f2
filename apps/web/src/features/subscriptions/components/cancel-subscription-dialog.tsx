import type { CustomerCancellationReason, Subscription } from '@tessera/sdk';
import { useState, type FormEvent } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Textarea } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { useToast } from '../../../components/ui/toast';
import { formatDate } from '../../../lib/format';
import { useUpdateSubscription } from '../api/update-subscription';
import { explainSubscriptionError } from './subscription-errors';
import { CANCELLATION_REASONS } from './subscription-status';

const NO_REASON = 'none';
const REASON_OPTIONS = [{ value: NO_REASON, label: 'No reason given' }, ...CANCELLATION_REASONS];

export interface CancelSubscriptionDialogProps {
  subscription: Subscription;
  onChanged?(subscription: Subscription): void;
}

/** Cancels at the end of the current period, with the customer's reason and comment when known. */
export function CancelSubscriptionDialog({ subscription, onChanged }: CancelSubscriptionDialogProps) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState(NO_REASON);
  const [comment, setComment] = useState('');
  const update = useUpdateSubscription({ onChanged });
  const toast = useToast();
  const periodEnd = formatDate(subscription.current_period_end);

  function openDialog() {
    setReason(NO_REASON);
    setComment('');
    update.reset();
    setOpen(true);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    update.mutate(
      {
        id: subscription.id,
        body: {
          cancel_at_period_end: true,
          customer_cancellation_reason: reason === NO_REASON ? null : (reason as CustomerCancellationReason),
          customer_cancellation_comment: comment.trim() || null,
        },
      },
      {
        onSuccess: (updated) => {
          setOpen(false);
          toast(`Subscription will end on ${formatDate(updated.ends_at ?? updated.current_period_end)}`);
        },
      },
    );
  }

  return (
    <>
      <Button variant="secondary" size="sm" onClick={openDialog}>
        Cancel at period end
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Cancel at the end of the period"
        description={`The subscription stops renewing. The customer keeps access until ${periodEnd}, and it can be resumed until then.`}
      >
        <form onSubmit={submit} className="space-y-4">
          <Field label="Reason">
            <Select value={reason} options={REASON_OPTIONS} onValueChange={setReason} />
          </Field>
          <Field label="Comment" hint="Optional: what the customer said, for your records.">
            <Textarea value={comment} maxLength={2000} onChange={(event) => setComment(event.target.value)} />
          </Field>
          <ApiErrorAlert error={explainSubscriptionError(update.error, 'cancel')} />
          <DialogActions>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Keep subscription
            </Button>
            <Button type="submit" variant="danger" isPending={update.isPending}>
              Cancel at period end
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
