import type { Order, RefundReason } from '@tessera/sdk';
import { useState, type FormEvent } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Checkbox, Input, Textarea } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { useToast } from '../../../components/ui/toast';
import { fieldError } from '../../../lib/api-error';
import { formatMoney, toMajorUnits } from '../../../lib/format';
import { useCreateRefund } from '../api/create-refund';
import { canRefund, checkRefundAmount, refundableAmount, REFUND_REASON_OPTIONS } from '../logic/refund-form';

export interface RefundDialogProps {
  order: Order;
  /** Called once the API answered (the order's amounts and status changed: the page reloads it). */
  onRefunded?(): void;
}

/**
 * Refunds an order in full or in part. The amount excludes tax: the API refunds the tax portion with it.
 * Revoking benefits is offered for one-time orders only (a subscription's go when it is canceled).
 */
export function RefundDialog({ order, onRefunded }: RefundDialogProps) {
  const left = refundableAmount(order);
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState(toMajorUnits(left, order.currency));
  const [reason, setReason] = useState<RefundReason>('customer_request');
  const [comment, setComment] = useState('');
  const [revokeBenefits, setRevokeBenefits] = useState(false);
  const [amountError, setAmountError] = useState<string>();
  const mutation = useCreateRefund();
  const toast = useToast();
  const error = mutation.error;
  const isOneTime = order.subscription_id === null;

  function close(next: boolean) {
    setOpen(next);
    if (next) setAmount(toMajorUnits(refundableAmount(order), order.currency));
    else {
      setReason('customer_request');
      setComment('');
      setRevokeBenefits(false);
      setAmountError(undefined);
      mutation.reset();
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkRefundAmount(amount, order);
    if (!checked.ok) {
      setAmountError(checked.message);
      return;
    }
    setAmountError(undefined);
    mutation.mutate(
      {
        order_id: order.id,
        amount: checked.amount,
        reason,
        comment: comment.trim() || null,
        revoke_benefits: isOneTime && revokeBenefits,
      },
      {
        onSuccess: (refund) => {
          onRefunded?.();
          if (refund?.status === 'failed') toast('The payment processor refused the refund');
          else if (refund?.status === 'pending') toast('Refund sent: the payment processor confirms it shortly');
          else toast(`Refunded ${formatMoney(checked.amount + (refund?.tax_amount ?? 0), order.currency)}`);
          close(false);
        },
      },
    );
  }

  return (
    <>
      <Button variant="secondary" onClick={() => close(true)} disabled={!canRefund(order)}>
        Refund
      </Button>
      <Dialog
        open={open}
        onOpenChange={close}
        title="Refund order"
        description={`Up to ${formatMoney(left, order.currency)} is left to refund, excluding tax. The tax paid on the amount is refunded with it.`}
      >
        <form onSubmit={submit} className="space-y-4" noValidate>
          <ApiErrorAlert error={error} shownFields={['amount', 'reason', 'comment']} />
          <Field
            label={`Amount (${order.currency.toUpperCase()}, excluding tax)`}
            error={amountError ?? fieldError(error, 'amount')}
          >
            <Input
              inputMode="decimal"
              value={amount}
              onChange={(event) => {
                setAmount(event.target.value);
                setAmountError(undefined);
              }}
            />
          </Field>
          <Field label="Reason" error={fieldError(error, 'reason')}>
            <Select
              value={reason}
              options={REFUND_REASON_OPTIONS}
              onValueChange={(value) => setReason(value as RefundReason)}
            />
          </Field>
          <Field label="Comment" hint="For you only. Optional." error={fieldError(error, 'comment')}>
            <Textarea value={comment} onChange={(event) => setComment(event.target.value)} />
          </Field>
          {isOneTime && (
            <Checkbox
              label="Revoke the benefits of this order"
              checked={revokeBenefits}
              onChange={(event) => setRevokeBenefits(event.target.checked)}
            />
          )}
          <DialogActions>
            <Button variant="secondary" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" isPending={mutation.isPending}>
              Refund
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
