import { useState, type FormEvent } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Checkbox, Input } from '../../../components/ui/input';
import { Select, type SelectOption } from '../../../components/ui/select';
import { useToast } from '../../../components/ui/toast';
import { fieldError } from '../../../lib/api-error';
import { useCreateCheckoutLink } from '../api/create-checkout-link';

const NO_DISCOUNT = 'none';

export interface CreateCheckoutLinkDialogProps {
  /** Products that can be sold through the link (the route loads them). */
  productOptions: readonly SelectOption[];
  discountOptions: readonly SelectOption[];
}

export function CreateCheckoutLinkDialog({ productOptions, discountOptions }: CreateCheckoutLinkDialogProps) {
  const [open, setOpen] = useState(false);
  const [label, setLabel] = useState('');
  const [products, setProducts] = useState<string[]>([]);
  const [discountId, setDiscountId] = useState(NO_DISCOUNT);
  const [isDiscountCodeAllowed, setIsDiscountCodeAllowed] = useState(true);
  const [isBillingAddressRequired, setIsBillingAddressRequired] = useState(false);
  const [successUrl, setSuccessUrl] = useState('');
  const mutation = useCreateCheckoutLink();
  const toast = useToast();
  const error = mutation.error;

  function close(next: boolean) {
    setOpen(next);
    if (!next) {
      setLabel('');
      setProducts([]);
      setDiscountId(NO_DISCOUNT);
      setSuccessUrl('');
      mutation.reset();
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    mutation.mutate(
      {
        label: label.trim() || null,
        products,
        discount_id: discountId === NO_DISCOUNT ? null : discountId,
        allow_discount_codes: isDiscountCodeAllowed,
        require_billing_address: isBillingAddressRequired,
        success_url: successUrl.trim() || null,
      },
      {
        onSuccess: () => {
          toast('Checkout link created');
          close(false);
        },
      },
    );
  }

  return (
    <>
      <Button onClick={() => setOpen(true)} disabled={productOptions.length === 0}>
        New checkout link
      </Button>
      <Dialog open={open} onOpenChange={close} title="New checkout link" size="lg">
        <form onSubmit={submit} className="space-y-4" noValidate>
          <ApiErrorAlert error={error} shownFields={['label', 'products', 'success_url']} />
          <Field label="Label" hint="For you only, e.g. “Launch tweet”. Optional." error={fieldError(error, 'label')}>
            <Input value={label} onChange={(event) => setLabel(event.target.value)} />
          </Field>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-800">Products offered</legend>
            <div className="grid gap-1 sm:grid-cols-2">
              {productOptions.map((option) => (
                <Checkbox
                  key={option.value}
                  label={option.label}
                  checked={products.includes(option.value)}
                  onChange={(event) =>
                    setProducts(
                      event.target.checked ? [...products, option.value] : products.filter((id) => id !== option.value),
                    )
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
              onValueChange={setDiscountId}
            />
          </Field>
          <Field
            label="Success URL"
            hint="Where customers land after paying. Optional."
            error={fieldError(error, 'success_url')}
          >
            <Input type="url" value={successUrl} onChange={(event) => setSuccessUrl(event.target.value)} />
          </Field>
          <div className="flex flex-col gap-2">
            <Checkbox
              label="Customers may enter discount codes"
              checked={isDiscountCodeAllowed}
              onChange={(event) => setIsDiscountCodeAllowed(event.target.checked)}
            />
            <Checkbox
              label="Require a billing address"
              checked={isBillingAddressRequired}
              onChange={(event) => setIsBillingAddressRequired(event.target.checked)}
            />
          </div>
          <DialogActions>
            <Button variant="secondary" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" isPending={mutation.isPending}>
              Create checkout link
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
