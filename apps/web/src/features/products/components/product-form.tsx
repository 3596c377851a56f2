import type { Product, ProductUpdate } from '@tessera/sdk';
import { useRef, useState, type FormEvent } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { Input, Textarea } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { fieldError } from '../../../lib/api-error';
import { useCreateProduct } from '../api/create-product';
import { useUpdateProduct } from '../api/update-product';
import { PriceFields } from './price-fields';
import { describePrice, emptyPrice, toNewPrice, type NewPrice, type PriceDraft } from './prices';

const BILLING = [
  { value: 'once', label: 'One-time purchase' },
  { value: 'month', label: 'Monthly subscription' },
  { value: 'year', label: 'Yearly subscription' },
];

export interface ProductFormProps {
  organizationId: string;
  /** Given when editing. */
  product?: Product;
  onSaved(product: Product): void;
}

export function ProductForm({ organizationId, product, onSaved }: ProductFormProps) {
  const nextKey = useRef(1);
  const [name, setName] = useState(product?.name ?? '');
  const [description, setDescription] = useState(product?.description ?? '');
  const [billing, setBilling] = useState<string>(product?.recurring_interval ?? 'once');
  const [kept, setKept] = useState(product ? product.prices.filter((price) => !price.is_archived) : []);
  const [drafts, setDrafts] = useState<PriceDraft[]>(product ? [] : [emptyPrice('0')]);
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const create = useCreateProduct();
  const update = useUpdateProduct();
  const mutation = product ? update : create;
  const errorFor = (field: string) => localErrors[field] ?? fieldError(mutation.error, field);

  function submit(event: FormEvent) {
    event.preventDefault();
    const errors: Record<string, string> = {};
    if (name.trim().length < 3) errors.name = 'Enter a name of at least 3 characters.';
    const prices: NewPrice[] = [];
    drafts.forEach((draft, position) => {
      const result = toNewPrice(draft, kept.length + position);
      Object.assign(errors, result.errors);
      if (result.price) prices.push(result.price);
    });
    if (kept.length + drafts.length === 0) errors.prices = 'Add at least one price.';
    setLocalErrors(errors);
    if (Object.keys(errors).length > 0) return;

    const recurring_interval = billing === 'once' ? null : (billing as 'month' | 'year');
    const common = { name: name.trim(), description: description.trim() || null, recurring_interval };
    if (product) {
      const body: ProductUpdate = { ...common, prices: [...kept.map((price) => ({ id: price.id })), ...prices] };
      update.mutate({ id: product.id, body }, { onSuccess: onSaved });
    } else {
      create.mutate({ ...common, organization_id: organizationId, prices }, { onSuccess: onSaved });
    }
  }

  const shown = ['name', 'description', 'recurring_interval', 'prices'];
  drafts.forEach((_, position) => {
    const index = kept.length + position;
    for (const field of [
      'price_amount',
      'price_currency',
      'minimum_amount',
      'maximum_amount',
      'preset_amount',
      'meter_id',
      'unit_amount',
      'cap_amount',
    ])
      shown.push(`prices.${index}.${field}`);
  });

  return (
    <form onSubmit={submit} className="max-w-3xl space-y-6" noValidate>
      <ApiErrorAlert error={mutation.error} shownFields={shown} />
      <Card>
        <CardTitle>Details</CardTitle>
        <div className="space-y-4">
          <Field label="Product name" error={errorFor('name')}>
            <Input value={name} onChange={(event) => setName(event.target.value)} />
          </Field>
          <Field label="Description" hint="Shown to customers at checkout. Optional." error={errorFor('description')}>
            <Textarea value={description} onChange={(event) => setDescription(event.target.value)} />
          </Field>
          <Field label="Billing" error={errorFor('recurring_interval')}>
            <Select value={billing} options={BILLING} onValueChange={setBilling} />
          </Field>
        </div>
      </Card>
      <Card>
        <CardTitle>Prices</CardTitle>
        <div className="space-y-4">
          {kept.map((price) => (
            <div
              key={price.id}
              className="flex items-center justify-between rounded-md border border-slate-200 px-4 py-3 text-sm"
            >
              <span>{describePrice(price)}</span>
              <Button variant="ghost" size="sm" onClick={() => setKept(kept.filter((item) => item.id !== price.id))}>
                Remove {describePrice(price)}
              </Button>
            </div>
          ))}
          {drafts.map((draft, position) => (
            <PriceFields
              key={draft.key}
              draft={draft}
              index={kept.length + position}
              number={drafts.length > 1 ? position + 1 : 1}
              errorFor={errorFor}
              onChange={(next) => setDrafts(drafts.map((item) => (item.key === draft.key ? next : item)))}
              onRemove={
                kept.length + drafts.length > 1
                  ? () => setDrafts(drafts.filter((item) => item.key !== draft.key))
                  : undefined
              }
            />
          ))}
          {errorFor('prices') && <p className="text-sm text-red-700">{errorFor('prices')}</p>}
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setDrafts([...drafts, emptyPrice(String(nextKey.current++))])}
          >
            Add a price
          </Button>
        </div>
      </Card>
      <Button type="submit" isPending={mutation.isPending}>
        {product ? 'Save product' : 'Create product'}
      </Button>
    </form>
  );
}
