import type { CustomerOrder } from '@tessera/sdk';
import { useMemo, useState, type FormEvent } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { AddressFields } from '../../../components/address/address-fields';
import { useToast } from '../../../components/ui/toast';
import { fieldError } from '../../../lib/api-error';
import { countryOptions } from '../../../lib/countries';
import { useUpdateOrder } from '../api/update-order';
import { orderBillingEntryOf, orderBillingUpdateOf, type OrderBillingEntry } from '../logic/order-billing';

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
  const countries = useMemo(() => countryOptions(), []);
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
          <AddressFields
            address={entry}
            onChange={(next) => setEntry(next)}
            countries={countries}
            noAddressLabel="No billing address"
            errorFor={(part) =>
              error(`billing_address.${part}`) ?? (part === 'country' ? error('billing_address') : undefined)
            }
          />
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
