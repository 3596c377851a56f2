import type { Discount, DiscountCreate } from '@tessera/sdk';
import { useState, type FormEvent, type ReactNode } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Checkbox, Input } from '../../../components/ui/input';
import { Select, type SelectOption } from '../../../components/ui/select';
import { useToast } from '../../../components/ui/toast';
import { fieldError } from '../../../lib/api-error';
import { parseBasisPoints, parseMoney, toMajorUnits } from '../../../lib/format';
import { useCreateDiscount } from '../api/create-discount';
import { useUpdateDiscount } from '../api/update-discount';

const TYPES = [
  { value: 'percentage', label: 'Percentage off' },
  { value: 'fixed', label: 'Fixed amount off' },
];

const DURATIONS = [
  { value: 'once', label: 'Once (first payment)' },
  { value: 'repeating', label: 'For a number of months' },
  { value: 'forever', label: 'Forever' },
];

function dateInput(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 10) : '';
}

function initial(discount?: Discount) {
  return {
    name: discount?.name ?? '',
    code: discount?.code ?? '',
    type: discount?.type ?? 'percentage',
    percent: discount?.type === 'percentage' ? String(discount.basis_points / 100) : '',
    amount: discount?.type === 'fixed' ? toMajorUnits(discount.amount, discount.currency) : '',
    currency: discount?.type === 'fixed' ? discount.currency : 'usd',
    duration: discount?.duration ?? 'once',
    months: discount?.duration === 'repeating' ? String(discount.duration_in_months) : '3',
    maxRedemptions: discount?.max_redemptions ? String(discount.max_redemptions) : '',
    startsAt: dateInput(discount?.starts_at),
    endsAt: dateInput(discount?.ends_at),
    products: discount?.products.map((product) => product.id) ?? [],
  };
}

export interface DiscountFormDialogProps {
  organizationId: string;
  /** Given when editing. */
  discount?: Discount;
  /** The organization's products the discount can be limited to (the route loads them). */
  productOptions?: readonly SelectOption[];
  trigger(open: () => void): ReactNode;
}

export function DiscountFormDialog({
  organizationId,
  discount,
  productOptions = [],
  trigger,
}: DiscountFormDialogProps) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(() => initial(discount));
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const create = useCreateDiscount();
  const update = useUpdateDiscount();
  const mutation = discount ? update : create;
  const toast = useToast();
  const set = (patch: Partial<typeof form>) => setForm({ ...form, ...patch });
  const errorFor = (field: string) => localErrors[field] ?? fieldError(mutation.error, field);

  function openDialog() {
    setForm(initial(discount));
    setLocalErrors({});
    mutation.reset();
    setOpen(true);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const errors: Record<string, string> = {};
    const basisPoints = form.type === 'percentage' ? parseBasisPoints(form.percent) : null;
    const amount = form.type === 'fixed' ? parseMoney(form.amount, form.currency) : null;
    if (form.type === 'percentage' && basisPoints === null)
      errors.basis_points = 'Enter a percentage such as 25 or 12.5.';
    if (form.type === 'fixed' && amount === null) errors.amount = 'Enter an amount such as 10 or 9.99.';
    const months = Number(form.months);
    if (form.duration === 'repeating' && !(Number.isInteger(months) && months > 0))
      errors.duration_in_months = 'Enter a number of months.';
    setLocalErrors(errors);
    if (Object.keys(errors).length > 0) return;

    const body = {
      name: form.name,
      code: form.code.trim() || null,
      type: form.type,
      duration: form.duration,
      duration_in_months: form.duration === 'repeating' ? months : null,
      basis_points: basisPoints,
      amount,
      ...(form.type === 'fixed' ? { currency: form.currency.trim().toLowerCase() } : {}),
      max_redemptions: form.maxRedemptions.trim() ? Number(form.maxRedemptions) : null,
      starts_at: form.startsAt ? new Date(`${form.startsAt}T00:00:00Z`).toISOString() : null,
      ends_at: form.endsAt ? new Date(`${form.endsAt}T23:59:59Z`).toISOString() : null,
      products: form.products,
    } satisfies Omit<DiscountCreate, 'organization_id'>;
    const done = (saved: Discount) => {
      toast(discount ? `Discount “${saved.name}” saved` : `Discount “${saved.name}” created`);
      setOpen(false);
    };
    if (discount) update.mutate({ id: discount.id, body }, { onSuccess: done });
    else create.mutate({ ...body, organization_id: organizationId }, { onSuccess: done });
  }

  const shown = [
    'name',
    'code',
    'basis_points',
    'amount',
    'currency',
    'duration_in_months',
    'max_redemptions',
    'starts_at',
    'ends_at',
    'products',
  ];
  return (
    <>
      {trigger(openDialog)}
      <Dialog open={open} onOpenChange={setOpen} title={discount ? `Edit ${discount.name}` : 'New discount'} size="lg">
        <form onSubmit={submit} className="space-y-4" noValidate>
          <ApiErrorAlert error={mutation.error} shownFields={shown} />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Discount name" hint="Shown to customers." error={errorFor('name')}>
              <Input value={form.name} onChange={(event) => set({ name: event.target.value })} />
            </Field>
            <Field
              label="Code"
              hint="Letters and digits; leave empty for a discount applied only through links."
              error={errorFor('code')}
            >
              <Input value={form.code} onChange={(event) => set({ code: event.target.value })} />
            </Field>
            <Field label="Discount type">
              <Select
                value={form.type}
                options={TYPES}
                onValueChange={(value) => set({ type: value as typeof form.type })}
              />
            </Field>
            {form.type === 'percentage' ? (
              <Field label="Percentage" hint="e.g. 25 for 25% off." error={errorFor('basis_points')}>
                <Input
                  inputMode="decimal"
                  value={form.percent}
                  onChange={(event) => set({ percent: event.target.value })}
                />
              </Field>
            ) : (
              <div className="grid grid-cols-[1fr_6rem] gap-2">
                <Field label="Amount off" error={errorFor('amount')}>
                  <Input
                    inputMode="decimal"
                    value={form.amount}
                    onChange={(event) => set({ amount: event.target.value })}
                  />
                </Field>
                <Field label="Currency" error={errorFor('currency')}>
                  <Input
                    value={form.currency}
                    maxLength={3}
                    onChange={(event) => set({ currency: event.target.value })}
                  />
                </Field>
              </div>
            )}
            <Field label="Duration">
              <Select
                value={form.duration}
                options={DURATIONS}
                onValueChange={(value) => set({ duration: value as typeof form.duration })}
              />
            </Field>
            {form.duration === 'repeating' && (
              <Field label="Number of months" error={errorFor('duration_in_months')}>
                <Input
                  inputMode="numeric"
                  value={form.months}
                  onChange={(event) => set({ months: event.target.value })}
                />
              </Field>
            )}
            <Field label="Maximum redemptions" hint="Optional." error={errorFor('max_redemptions')}>
              <Input
                inputMode="numeric"
                value={form.maxRedemptions}
                onChange={(event) => set({ maxRedemptions: event.target.value })}
              />
            </Field>
            <Field label="Starts on" hint="Optional." error={errorFor('starts_at')}>
              <Input type="date" value={form.startsAt} onChange={(event) => set({ startsAt: event.target.value })} />
            </Field>
            <Field label="Ends on" hint="Optional." error={errorFor('ends_at')}>
              <Input type="date" value={form.endsAt} onChange={(event) => set({ endsAt: event.target.value })} />
            </Field>
          </div>
          <DiscountProductsFieldset
            options={[
              ...productOptions,
              ...(discount?.products ?? [])
                .filter((product) => !productOptions.some((option) => option.value === product.id))
                .map((product) => ({ value: product.id, label: product.name })),
            ]}
            selected={form.products}
            error={errorFor('products')}
            onChange={(products) => set({ products })}
          />
          <DialogActions>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" isPending={mutation.isPending}>
              {discount ? 'Save discount' : 'Create discount'}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}

/** Which products the discount applies to: none chosen means every product of the organization. */
function DiscountProductsFieldset({
  options,
  selected,
  error,
  onChange,
}: {
  options: readonly SelectOption[];
  selected: readonly string[];
  error: string | undefined;
  onChange(products: string[]): void;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-800">Limited to products</legend>
      <p className="text-sm text-slate-600">
        {selected.length === 0
          ? 'None chosen: the discount applies to every product.'
          : `Applies to the ${selected.length === 1 ? 'product' : `${selected.length} products`} chosen only.`}
      </p>
      {options.length > 0 && (
        <div className="grid gap-1 sm:grid-cols-2">
          {options.map((option) => (
            <Checkbox
              key={option.value}
              label={option.label}
              checked={selected.includes(option.value)}
              onChange={(event) =>
                onChange(
                  event.target.checked ? [...selected, option.value] : selected.filter((id) => id !== option.value),
                )
              }
            />
          ))}
        </div>
      )}
      {error && <p className="text-sm text-red-700">{error}</p>}
    </fieldset>
  );
}
