import type { CustomerCancellationReason } from '@tessera/sdk';
import { useState, type FormEvent } from 'react';
import { ApiErrorAlert } from '../ui/alert';
import { Button } from '../ui/button';
import { Dialog, DialogActions } from '../ui/dialog';
import { Field } from '../ui/field';
import { Textarea } from '../ui/input';
import { Select } from '../ui/select';

/** The dialog's words, which differ between the seller (dashboard) and the customer (portal). */
export interface CancellationDialogText {
  /** The button that opens the dialog. */
  trigger: string;
  title: string;
  description: string;
  reasonLabel: string;
  /** The reason option that gives none. */
  noReason: string;
  commentLabel: string;
  commentHint: string;
}

export interface CancellationChoice {
  reason: CustomerCancellationReason | null;
  comment: string | null;
}

export interface CancellationDialogProps {
  text: CancellationDialogText;
  reasons: readonly { value: CustomerCancellationReason; label: string }[];
  isPending: boolean;
  /** The refusal of the last attempt, already in the reader's words. */
  error: unknown;
  /** Called as the dialog opens, to clear the last attempt's refusal. */
  onOpen(): void;
  /** Cancels at the end of the period; calls `close` once that went through. */
  onSubmit(choice: CancellationChoice, close: () => void): void;
}

const NO_REASON = 'none';

/** Cancels a subscription at the end of its period, with the customer's reason and comment when given. */
export function CancellationDialog({ text, reasons, isPending, error, onOpen, onSubmit }: CancellationDialogProps) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState(NO_REASON);
  const [comment, setComment] = useState('');
  const reasonOptions = [{ value: NO_REASON, label: text.noReason }, ...reasons];

  function openDialog() {
    setReason(NO_REASON);
    setComment('');
    onOpen();
    setOpen(true);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit(
      {
        reason: reason === NO_REASON ? null : (reason as CustomerCancellationReason),
        comment: comment.trim() || null,
      },
      () => setOpen(false),
    );
  }

  return (
    <>
      <Button variant="secondary" size="sm" onClick={openDialog}>
        {text.trigger}
      </Button>
      <Dialog open={open} onOpenChange={setOpen} title={text.title} description={text.description}>
        <form onSubmit={submit} className="space-y-4">
          <Field label={text.reasonLabel}>
            <Select value={reason} options={reasonOptions} onValueChange={setReason} />
          </Field>
          <Field label={text.commentLabel} hint={text.commentHint}>
            <Textarea value={comment} maxLength={2000} onChange={(event) => setComment(event.target.value)} />
          </Field>
          <ApiErrorAlert error={error} />
          <DialogActions>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Keep subscription
            </Button>
            <Button type="submit" variant="danger" isPending={isPending}>
              Cancel at period end
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
