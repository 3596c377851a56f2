import type { Customer } from '@tessera/sdk';
import { useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { AddressFields } from '../../../components/address/address-fields';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Input, Textarea } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { fieldError } from '../../../lib/api-error';
import { countryOptions } from '../../../lib/countries';
import { useDeleteCustomer } from '../api/delete-customer';
import { useUpdateCustomer } from '../api/update-customer';
import { customerEntryOf, customerUpdateOf, type CustomerEntry } from '../logic/edit';

const SHOWN_FIELDS = [
  'name',
  'email',
  'metadata',
  'billing_address',
  'billing_address.country',
  'billing_address.line1',
  'billing_address.line2',
  'billing_address.postal_code',
  'billing_address.city',
  'billing_address.state',
];

/** Name, email, billing address and metadata in a dialog; each API complaint shown at its field. */
export function EditCustomerButton({ customer }: { customer: Customer }) {
  const [open, setOpen] = useState(false);
  const [entry, setEntry] = useState<CustomerEntry>(() => customerEntryOf(customer));
  const [metadataError, setMetadataError] = useState<string | undefined>();
  const update = useUpdateCustomer();
  const toast = useToast();
  const countries = useMemo(() => countryOptions(), []);
  const set = (patch: Partial<CustomerEntry>) => setEntry((current) => ({ ...current, ...patch }));
  const error = (field: string) => fieldError(update.error, field);

  function openDialog() {
    setEntry(customerEntryOf(customer));
    setMetadataError(undefined);
    update.reset();
    setOpen(true);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const result = customerUpdateOf(entry, customer);
    if ('badMetadataLines' in result) {
      setMetadataError(`Write each line as key: value (line ${result.badMetadataLines.join(', ')}).`);
      return;
    }
    setMetadataError(undefined);
    if (Object.keys(result.body).length === 0) {
      setOpen(false);
      return;
    }
    update.mutate(
      { id: customer.id, body: result.body },
      {
        onSuccess: () => {
          toast('Customer saved');
          setOpen(false);
        },
      },
    );
  }

  return (
    <>
      <Button variant="secondary" onClick={openDialog}>
        Edit customer
      </Button>
      <Dialog open={open} onOpenChange={setOpen} title="Edit customer" size="lg">
        <form onSubmit={submit} noValidate className="space-y-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Name" error={error('name')}>
              <Input value={entry.name} onChange={(event) => set({ name: event.target.value })} />
            </Field>
            <Field label="Email" error={error('email')} hint="A new email must be verified again.">
              <Input type="email" value={entry.email} onChange={(event) => set({ email: event.target.value })} />
            </Field>
          </div>
          <AddressFields
            address={entry}
            onChange={(next) => setEntry(next)}
            countries={countries}
            noAddressLabel="No billing address"
            legend="Billing address"
            errorFor={(part) =>
              error(`billing_address.${part}`) ?? (part === 'country' ? error('billing_address') : undefined)
            }
          />
          <Field label="Metadata (optional)" error={metadataError ?? error('metadata')} hint="One key: value per line.">
            <Textarea rows={4} value={entry.metadata} onChange={(event) => set({ metadata: event.target.value })} />
          </Field>
          <ApiErrorAlert error={update.error} shownFields={SHOWN_FIELDS} />
          <DialogActions>
            <Button variant="secondary" type="button" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" isPending={update.isPending}>
              Save customer
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}

/** Deletes the customer after a confirmation that says what happens to its subscriptions and benefits. */
export function DeleteCustomerButton({ customer, listPath }: { customer: Customer; listPath: string }) {
  const mutation = useDeleteCustomer();
  const navigate = useNavigate();
  const toast = useToast();
  return (
    <>
      <ConfirmButton
        isPending={mutation.isPending}
        title="Delete this customer?"
        description={
          `${customer.email}'s active and trialing subscriptions are revoked at once and every benefit is ` +
          'revoked. Orders are kept. This cannot be undone.'
        }
        confirmLabel="Delete customer"
        onConfirm={() =>
          mutation.mutate(customer.id, {
            onSuccess: () => {
              toast('Customer deleted');
              navigate(listPath);
            },
          })
        }
      >
        Delete customer
      </ConfirmButton>
      <ApiErrorAlert error={mutation.error} />
    </>
  );
}
