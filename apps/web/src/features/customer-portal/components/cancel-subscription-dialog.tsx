import type { CustomerCancellationReason, CustomerSubscription } from '@tessera/sdk';
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
import { explainSubscriptionError } from '../logic/subscription-errors';
import { CANCELLATION_REASONS } from '../logic/subscription-status';

const NO_REASON = 'none';
const REASON_OPTIONS = [{ value: NO_REASON, label: 'I’d rather not say' }, ...CANCELLATION_REASONS];

export interface CancelSubscriptionDialogProps {
  subscription: CustomerSubscription;
  sellerName: string;
}

/** Cancels at the end of the paid period, with the customer's reason and comment when given. */
export function CancelSubscriptionDialog({ subscription, sellerName }: CancelSubscriptionDialogProps) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState(NO_REASON);
  const [comment, setComment] = useState('');
  const update = useUpdateSubscription();
  const toast = useToast();

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
          cancellation_reason: reason === NO_REASON ? null : (reason as CustomerCancellationReason),
          cancellation_comment: comment.trim() || null,
        },
      },
      {
        onSuccess: (updated) => {
          setOpen(false);
          toast(`Your subscription ends on ${formatDate(updated.ends_at ?? updated.current_period_end)}`);
        },
      },
    );
  }

  return (
    <>
      <Button variant="secondary" size="sm" onClick={openDialog}>
        Cancel subscription
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Cancel your subscription"
        description={`${subscription.product.name} stops renewing. You keep access until ${formatDate(subscription.current_period_end)}, and you can resume it until then.`}
      >
        <form onSubmit={submit} className="space-y-4">
          <Field label="Why are you canceling?">
            <Select value={reason} options={REASON_OPTIONS} onValueChange={setReason} />
          </Field>
          <Field label="Anything else to tell us?" hint={`Optional. ${sellerName} reads it.`}>
            <Textarea value={comment} maxLength={2000} onChange={(event) => setComment(event.target.value)} />
          </Field>
          <ApiErrorAlert error={explainSubscriptionError(update.error, 'cancel', sellerName)} />
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
