import type { Subscription, SubscriptionProrationBehavior } from '@tessera/sdk';
import { useState, type FormEvent } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Select, type SelectOption } from '../../../components/ui/select';
import { useToast } from '../../../components/ui/toast';
import { fieldError } from '../../../lib/api-error';
import { ChangePreview } from '../../../components/subscriptions/change-preview';
import { usePreviewSubscription } from '../api/preview-subscription';
import { useUpdateSubscription } from '../api/update-subscription';
import { explainSubscriptionError } from './subscription-errors';
import { PRORATION_OPTIONS } from './subscription-status';

export interface ChangeProductDialogProps {
  subscription: Subscription;
  /** Recurring products the subscription can move to (the current one left out). */
  productOptions: readonly SelectOption[];
  /** The organization's proration setting, preselected. */
  defaultProration: SubscriptionProrationBehavior;
  onChanged?(subscription: Subscription): void;
}

export function ChangeProductDialog({
  subscription,
  productOptions,
  defaultProration,
  onChanged,
}: ChangeProductDialogProps) {
  const [open, setOpen] = useState(false);
  const [productId, setProductId] = useState('');
  const [proration, setProration] = useState<SubscriptionProrationBehavior>(defaultProration);
  const [missingProduct, setMissingProduct] = useState(false);
  const update = useUpdateSubscription({ onChanged });
  // What the change charges, shown before it is confirmed (the API's dry run of the same change).
  const preview = usePreviewSubscription(
    subscription.id,
    open && productId ? { product_id: productId, proration_behavior: proration } : null,
  );
  const toast = useToast();

  function openDialog() {
    setProductId('');
    setProration(defaultProration);
    setMissingProduct(false);
    update.reset();
    setOpen(true);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!productId) {
      setMissingProduct(true);
      return;
    }
    update.mutate(
      { id: subscription.id, body: { product_id: productId, proration_behavior: proration } },
      {
        onSuccess: (updated) => {
          setOpen(false);
          toast(`Subscription moved to ${updated.product.name}`);
        },
      },
    );
  }

  const productError = missingProduct ? 'Choose a product.' : fieldError(update.error, 'product_id');
  return (
    <>
      <Button variant="secondary" size="sm" onClick={openDialog}>
        Change product
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Change product"
        description={`Moves the subscription from ${subscription.product.name} to another recurring product. A product with another interval starts a new period now, billed at once.`}
      >
        {productOptions.length === 0 ? (
          <p className="text-sm text-slate-700">
            There is no other recurring product to move to. Create a monthly or yearly product first.
          </p>
        ) : (
          <form onSubmit={submit} className="space-y-4">
            <Field label="New product" error={productError}>
              <Select
                value={productId}
                placeholder="Choose a product"
                options={productOptions}
                onValueChange={(value) => {
                  setProductId(value);
                  setMissingProduct(false);
                }}
              />
            </Field>
            <Field label="Proration">
              <Select
                value={proration}
                options={PRORATION_OPTIONS}
                onValueChange={(value) => setProration(value as SubscriptionProrationBehavior)}
              />
            </Field>
            {productId && <ChangePreview preview={preview.data} isFetching={preview.isFetching} audience="seller" />}
            <ApiErrorAlert
              error={explainSubscriptionError(update.error ?? preview.error, 'change-product')}
              shownFields={['product_id']}
            />
            <DialogActions>
              <Button variant="secondary" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" isPending={update.isPending} disabled={Boolean(productId) && !preview.data}>
                Change product
              </Button>
            </DialogActions>
          </form>
        )}
      </Dialog>
    </>
  );
}
