import type { CustomerProduct, CustomerSubscription } from '@tessera/sdk';
import { useState, type FormEvent } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Select } from '../../../components/ui/select';
import { useToast } from '../../../components/ui/toast';
import { fieldError } from '../../../lib/api-error';
import { ChangePreview } from '../../../components/subscriptions/change-preview';
import { usePreviewSubscription } from '../api/preview-subscription';
import { useUpdateSubscription } from '../api/update-subscription';
import { explainSubscriptionError } from '../logic/subscription-errors';
import { planPriceWords } from '../logic/subscription-status';

export interface ChangePlanDialogProps {
  subscription: CustomerSubscription;
  /** The plans it can move to (the current one left out). */
  plans: readonly CustomerProduct[];
  /** The organization's proration setting: when the price difference is billed. */
  prorationBehavior: 'invoice' | 'prorate';
  sellerName: string;
}

export function ChangePlanDialog({ subscription, plans, prorationBehavior, sellerName }: ChangePlanDialogProps) {
  const [open, setOpen] = useState(false);
  const [productId, setProductId] = useState('');
  const [missingPlan, setMissingPlan] = useState(false);
  const update = useUpdateSubscription();
  // What the change charges, shown before it is confirmed (the API's dry run of the same change).
  const preview = usePreviewSubscription(subscription.id, open && productId ? { product_id: productId } : null);
  const toast = useToast();
  const options = plans.map((plan) => ({ value: plan.id, label: `${plan.name} · ${planPriceWords(plan)}` }));

  function openDialog() {
    setProductId('');
    setMissingPlan(false);
    update.reset();
    setOpen(true);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!productId) {
      setMissingPlan(true);
      return;
    }
    update.mutate(
      { id: subscription.id, body: { product_id: productId } },
      {
        onSuccess: (updated) => {
          setOpen(false);
          toast(`You are now on ${updated.product.name}`);
        },
      },
    );
  }

  const billing =
    prorationBehavior === 'invoice'
      ? 'The price difference for the rest of this period is charged now.'
      : 'The price difference for the rest of this period is added to your next invoice.';
  const planError = missingPlan ? 'Choose a plan.' : fieldError(update.error, 'product_id');
  return (
    <>
      <Button variant="secondary" size="sm" onClick={openDialog}>
        Change plan
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Change plan"
        description={`Move from ${subscription.product.name} to another plan. ${billing} A plan with another billing interval starts a new period today.`}
      >
        <form onSubmit={submit} className="space-y-4">
          <Field label="New plan" error={planError}>
            <Select
              value={productId}
              placeholder="Choose a plan"
              options={options}
              onValueChange={(value) => {
                setProductId(value);
                setMissingPlan(false);
              }}
            />
          </Field>
          {productId && <ChangePreview preview={preview.data} isFetching={preview.isFetching} audience="customer" />}
          <ApiErrorAlert
            error={explainSubscriptionError(update.error ?? preview.error, 'change-plan', sellerName)}
            shownFields={['product_id']}
          />
          <DialogActions>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Keep current plan
            </Button>
            <Button type="submit" isPending={update.isPending} disabled={Boolean(productId) && !preview.data}>
              Change plan
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
