import type { CheckoutLink } from '@tessera/sdk';
import { useState, type FormEvent, type ReactNode } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Checkbox, Input } from '../../../components/ui/input';
import { Select, type SelectOption } from '../../../components/ui/select';
import { useToast } from '../../../components/ui/toast';
import { fieldError } from '../../../lib/api-error';
import { TrialLengthFields } from '../../../components/trials/trial-length-fields';
import { trialDraftOf, trialFields } from '../../../lib/trials';
import { useCreateCheckoutLink } from '../api/create-checkout-link';
import { useUpdateCheckoutLink } from '../api/update-checkout-link';

const NO_DISCOUNT = 'none';

export interface CreateCheckoutLinkDialogProps {
  /** Products that can be sold through the link (the route loads them). */
  productOptions: readonly SelectOption[];
  discountOptions: readonly SelectOption[];
}

export function CreateCheckoutLinkDialog({ productOptions, discountOptions }: CreateCheckoutLinkDialogProps) {
  return (
    <CheckoutLinkFormDialog
      productOptions={productOptions}
      discountOptions={discountOptions}
      trigger={(open) => (
        <Button onClick={open} disabled={productOptions.length === 0}>
          New checkout link
        </Button>
      )}
    />
  );
}

export interface CheckoutLinkFormDialogProps extends CreateCheckoutLinkDialogProps {
  /** Given when editing: the form starts from it and saves with PATCH; its URL stays the same. */
  link?: CheckoutLink;
  trigger(open: () => void): ReactNode;
}

function initial(link?: CheckoutLink) {
  return {
    label: link?.label ?? '',
    products: link?.products.map((product) => product.id) ?? [],
    discountId: link?.discount_id ?? NO_DISCOUNT,
    isDiscountCodeAllowed: link?.allow_discount_codes ?? true,
    isBillingAddressRequired: link?.require_billing_address ?? false,
    successUrl: link?.success_url ?? '',
    trial: trialDraftOf(link),
  };
}

/** Creates a checkout link, or edits one (`link`): label, products, discount, success URL, options. */
export function CheckoutLinkFormDialog({
  productOptions,
  discountOptions,
  link,
  trigger,
}: CheckoutLinkFormDialogProps) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(() => initial(link));
  const set = (patch: Partial<typeof form>) => setForm({ ...form, ...patch });
  const { label, products, discountId, isDiscountCodeAllowed, isBillingAddressRequired, successUrl, trial } = form;
  const [trialError, setTrialError] = useState<string | null>(null);
  const create = useCreateCheckoutLink();
  const update = useUpdateCheckoutLink();
  const mutation = link ? update : create;
  const toast = useToast();
  const error = mutation.error;
  const name = link ? link.label || 'Untitled link' : null;
  // A product of the link that is no longer offered (archived) stays listed, so saving keeps it.
  const options = [
    ...productOptions,
    ...(link?.products ?? [])
      .filter((product) => !productOptions.some((option) => option.value === product.id))
      .map((product) => ({ value: product.id, label: product.name })),
  ];

  function close(next: boolean) {
    setOpen(next);
    setTrialError(null);
    if (!next) mutation.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const trialResult = trialFields(trial);
    setTrialError(trialResult.error);
    if (trialResult.error) return;
    const body = {
      label: label.trim() || null,
      products,
      discount_id: discountId === NO_DISCOUNT ? null : discountId,
      allow_discount_codes: isDiscountCodeAllowed,
      require_billing_address: isBillingAddressRequired,
      success_url: successUrl.trim() || null,
      // Null: the products' own trial.
      ...trialResult.fields,
    };
    const onSuccess = () => {
      toast(link ? 'Checkout link saved' : 'Checkout link created');
      close(false);
    };
    if (link) update.mutate({ id: link.id, body }, { onSuccess });
    else create.mutate(body, { onSuccess });
  }

  return (
    <>
      {trigger(() => {
        setForm(initial(link));
        mutation.reset();
        setOpen(true);
      })}
      <Dialog open={open} onOpenChange={close} title={name ? `Edit “${name}”` : 'New checkout link'} size="lg">
        <form onSubmit={submit} className="space-y-4" noValidate>
          <ApiErrorAlert
            error={error}
            shownFields={['label', 'products', 'success_url', 'trial_interval', 'trial_interval_count']}
          />
          <Field label="Label" hint="For you only, e.g. “Launch tweet”. Optional." error={fieldError(error, 'label')}>
            <Input value={label} onChange={(event) => set({ label: event.target.value })} />
          </Field>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-800">Products offered</legend>
            <div className="grid gap-1 sm:grid-cols-2">
              {options.map((option) => (
                <Checkbox
                  key={option.value}
                  label={option.label}
                  checked={products.includes(option.value)}
                  onChange={(event) =>
                    set({
                      products: event.target.checked
                        ? [...products, option.value]
                        : products.filter((id) => id !== option.value),
                    })
                  }
                />
              ))}
            </div>
            {fieldError(error, 'products') && <p className="text-sm text-red-700">{fieldError(error, 'products')}</p>}
          </fieldset>
          <Field label="Discount applied">
            <Select
              value={discountId}
              options={[{ value: NO_DISCOUNT, label: 'No discount' }, ...discountOptions]}
              onValueChange={(next) => set({ discountId: next })}
            />
          </Field>
          <Field
            label="Success URL"
            hint="Where customers land after paying. Optional."
            error={fieldError(error, 'success_url')}
          >
            <Input type="url" value={successUrl} onChange={(event) => set({ successUrl: event.target.value })} />
          </Field>
          <TrialLengthFields
            draft={trial}
            onChange={(next) => set({ trial: next })}
            noneLabel="The product’s own trial"
            intervalError={fieldError(error, 'trial_interval')}
            countError={trialError ?? fieldError(error, 'trial_interval_count')}
          />
          <div className="flex flex-col gap-2">
            <Checkbox
              label="Customers may enter discount codes"
              checked={isDiscountCodeAllowed}
              onChange={(event) => set({ isDiscountCodeAllowed: event.target.checked })}
            />
            <Checkbox
              label="Require a billing address"
              checked={isBillingAddressRequired}
              onChange={(event) => set({ isBillingAddressRequired: event.target.checked })}
            />
          </div>
          <DialogActions>
            <Button variant="secondary" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" isPending={mutation.isPending}>
              {link ? 'Save checkout link' : 'Create checkout link'}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
