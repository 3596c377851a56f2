import type { CustomerOrder } from '@tessera/sdk';
import { useMemo, useState, type FormEvent } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { useToast } from '../../../components/ui/toast';
import { fieldError } from '../../../lib/api-error';
import { countryOptions } from '../../../lib/countries';
import { useUpdateOrder } from '../api/update-order';
import { orderBillingEntryOf, orderBillingUpdateOf, type OrderBillingEntry } from '../logic/order-billing';

// Radix Select takes no empty value: the option for "no address" needs a value of its own.
const NO_COUNTRY = 'none';

const SHOWN_FIELDS = [
  'billing_name',
  'billing_address',
  'billing_address.country',
  'billing_address.line1',
  'billing_address.line2',
  'billing_address.postal_code',
  'billing_address.city',
  'billing_address.state',
];

/** The name and address an order's invoice is issued to, editable until the invoice exists. */
export function OrderBillingDialog({ order }: { order: CustomerOrder }) {
  const [open, setOpen] = useState(false);
  const [entry, setEntry] = useState<OrderBillingEntry>(() => orderBillingEntryOf(order));
  const update = useUpdateOrder(order.id);
  const toast = useToast();
  const countries = useMemo(() => [{ value: NO_COUNTRY, label: 'No billing address' }, ...countryOptions()], []);
  const set = (patch: Partial<OrderBillingEntry>) => setEntry((current) => ({ ...current, ...patch }));
  const error = (field: string) => fieldError(update.error, field);

  function submit(event: FormEvent) {
    event.preventDefault();
    update.mutate(orderBillingUpdateOf(entry), {
      onSuccess: () => {
        setOpen(false);
        toast('Billing details saved');
      },
    });
  }

  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          setEntry(orderBillingEntryOf(order));
          update.reset();
          setOpen(true);
        }}
      >
        Edit billing details
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Billing details"
        description="The name and address your invoice for this order is issued to. They cannot be changed once the invoice exists."
        size="lg"
      >
        <form onSubmit={submit} noValidate className="space-y-4">
          <Field label="Billing name" error={error('billing_name')}>
            <Input autoComplete="name" value={entry.name} onChange={(event) => set({ name: event.target.value })} />
          </Field>
          <Field label="Country" error={error('billing_address.country') ?? error('billing_address')}>
            <Select
              value={entry.country || NO_COUNTRY}
              options={countries}
              onValueChange={(country) => set({ country: country === NO_COUNTRY ? '' : country })}
            />
          </Field>
          {entry.country !== '' && (
            <>
              <Field label="Street address" error={error('billing_address.line1')}>
                <Input
                  autoComplete="address-line1"
                  value={entry.line1}
                  onChange={(event) => set({ line1: event.target.value })}
                />
              </Field>
              <Field label="Apartment, suite, etc. (optional)" error={error('billing_address.line2')}>
                <Input
                  autoComplete="address-line2"
                  value={entry.line2}
                  onChange={(event) => set({ line2: event.target.value })}
                />
              </Field>
              <div className="grid gap-4 sm:grid-cols-3">
                <Field label="Postal code" error={error('billing_address.postal_code')}>
                  <Input
                    autoComplete="postal-code"
                    value={entry.postalCode}
                    onChange={(event) => set({ postalCode: event.target.value })}
                  />
                </Field>
                <Field label="City" error={error('billing_address.city')}>
                  <Input
                    autoComplete="address-level2"
                    value={entry.city}
                    onChange={(event) => set({ city: event.target.value })}
                  />
                </Field>
                <Field
                  label="State or region"
                  error={error('billing_address.state')}
                  hint={
                    entry.country === 'US' || entry.country === 'CA' ? 'Its two-letter code, such as NY.' : undefined
                  }
                >
                  <Input
                    autoComplete="address-level1"
                    value={entry.state}
                    onChange={(event) => set({ state: event.target.value })}
                  />
                </Field>
              </div>
            </>
          )}
          <ApiErrorAlert error={update.error} shownFields={SHOWN_FIELDS} />
          <DialogActions>
            <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" isPending={update.isPending}>
              Save billing details
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
