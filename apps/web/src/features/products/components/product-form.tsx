import type { Benefit, CustomField, Product, ProductCreate, ProductUpdate } from '@tessera/sdk';
import { useRef, useState, type FormEvent } from 'react';
import { Alert, ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { Checkbox, Input, Textarea } from '../../../components/ui/input';
import { TrialLengthFields } from '../../../components/trials/trial-length-fields';
import { trialDraftOf, trialFields } from '../../../lib/trials';
import { Select, type SelectOption } from '../../../components/ui/select';
import { fieldError } from '../../../lib/api-error';
import { useCreateProduct } from '../api/create-product';
import { useUpdateProduct } from '../api/update-product';
import { useUpdateProductBenefits } from '../api/update-product-benefits';
import {
  attachedCustomFieldsBody,
  attachedFieldDrafts,
  moveAttachedField,
  orderedChoices,
  sameIds,
  selectedInOrder,
  setFieldRequired,
  toggleAttachedField,
} from './attachments';
import { PriceFields } from './price-fields';
import { describePrice, emptyPrice, toNewPrice, type NewPrice, type PriceDraft } from './prices';
import { ProductArchiveCard } from './product-archive-card';
import { ProductBenefitsFieldset } from './product-benefits-fieldset';
import { ProductCustomFieldsFieldset } from './product-custom-fields-fieldset';
import { ProductMediaFieldset } from './product-media-fieldset';

const BILLING = [
  { value: 'once', label: 'One-time purchase' },
  { value: 'month', label: 'Monthly subscription' },
  { value: 'year', label: 'Yearly subscription' },
];

const PRICE_FIELDS = [
  'price_amount',
  'price_currency',
  'minimum_amount',
  'maximum_amount',
  'preset_amount',
  'meter_id',
  'unit_amount',
  'cap_amount',
];

type SaveRequest = { kind: 'create'; body: ProductCreate } | { kind: 'update'; id: string; body: ProductUpdate };

/** A list the page loads for the form: undefined items while loading. */
export interface Choices<T> {
  items: readonly T[] | undefined;
  error: unknown;
}

export interface ProductFormProps {
  organizationId: string;
  /** Given when editing. */
  product?: Product;
  /** The organization's benefits and custom fields, to attach. */
  benefits: Choices<Benefit>;
  customFields: Choices<CustomField>;
  /** The organization's meters, offered to metered prices (loaded by the page). */
  meterOptions?: readonly SelectOption[];
  /** Where benefits and custom fields are managed. */
  benefitsPath: string;
  customFieldsPath: string;
  onSaved(product: Product): void;
}

export function ProductForm(props: ProductFormProps) {
  const { organizationId, product, benefits, customFields, onSaved } = props;
  const nextKey = useRef(1);
  // The product as last saved: after a creation whose benefits failed, the form edits what was created.
  const [current, setCurrent] = useState(product);
  const [name, setName] = useState(product?.name ?? '');
  const [description, setDescription] = useState(product?.description ?? '');
  const [billing, setBilling] = useState<string>(product?.recurring_interval ?? 'once');
  const [kept, setKept] = useState(product ? product.prices.filter((price) => !price.is_archived) : []);
  const [drafts, setDrafts] = useState<PriceDraft[]>(product ? [] : [emptyPrice('0')]);
  const [selectedBenefits, setSelectedBenefits] = useState(
    () => new Set(product?.benefits.map((benefit) => benefit.id) ?? []),
  );
  const [attachedFields, setAttachedFields] = useState(() => attachedFieldDrafts(product));
  const [medias, setMedias] = useState(product?.medias ?? []);
  const [trial, setTrial] = useState(() => trialDraftOf(product));
  const [trialRequiresCard, setTrialRequiresCard] = useState(product?.trial_requires_payment_method ?? true);
  const [trialOncePerCustomer, setTrialOncePerCustomer] = useState(product?.trial_once_per_customer ?? true);
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const create = useCreateProduct();
  const update = useUpdateProduct();
  const setBenefits = useUpdateProductBenefits();
  const mutation = current ? update : create;
  const errorFor = (field: string) => localErrors[field] ?? fieldError(mutation.error, field);

  // Attached benefits and fields first, in their order: the order shown is the order saved.
  const benefitChoices = orderedChoices(product?.benefits ?? [], benefits.items ?? []);
  const fieldChoices = orderedChoices(
    (current ?? product)?.attached_custom_fields.map((attached) => attached.custom_field) ?? [],
    customFields.items ?? [],
  );
  const sentBenefits = setBenefits.variables?.benefits ?? [];

  /** What the server now holds: kept prices are its live prices, and no new price is pending. */
  function adopt(saved: Product) {
    setCurrent(saved);
    setKept(saved.prices.filter((price) => !price.is_archived));
    setDrafts([]);
    setMedias(saved.medias);
  }

  async function save(request: SaveRequest) {
    setBenefits.reset();
    let saved: Product;
    try {
      saved =
        request.kind === 'update'
          ? await update.mutateAsync({ id: request.id, body: request.body })
          : await create.mutateAsync(request.body);
    } catch {
      return; // Shown from the mutation's error, next to the fields it names.
    }
    adopt(saved);
    const wanted = selectedInOrder(benefitChoices, selectedBenefits);
    const attached = saved.benefits.map((benefit) => benefit.id);
    if (sameIds(wanted, attached)) return onSaved(saved);
    try {
      onSaved(await setBenefits.mutateAsync({ id: saved.id, benefits: wanted }));
    } catch {
      // Shown in the Benefits section: the product itself was saved, and saving again retries.
    }
  }

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
    const trialResult = trialFields(billing === 'once' ? { ...trial, interval: 'none' } : trial);
    if (trialResult.error) errors.trial_interval_count = trialResult.error;
    setLocalErrors(errors);
    if (Object.keys(errors).length > 0) return;

    const recurring_interval = billing === 'once' ? null : (billing as 'month' | 'year');
    const common = {
      name: name.trim(),
      description: description.trim() || null,
      recurring_interval,
      attached_custom_fields: attachedCustomFieldsBody(attachedFields),
      medias: medias.map((media) => media.id),
      // A one-time product has no trial (docs/trials.md).
      ...(recurring_interval
        ? {
            ...trialResult.fields,
            trial_requires_payment_method: trialRequiresCard,
            trial_once_per_customer: trialOncePerCustomer,
          }
        : {}),
    };
    void save(
      current
        ? {
            kind: 'update',
            id: current.id,
            body: { ...common, prices: [...kept.map((price) => ({ id: price.id })), ...prices] },
          }
        : { kind: 'create', body: { ...common, organization_id: organizationId, prices } },
    );
  }

  const shown = [
    'name',
    'description',
    'recurring_interval',
    'trial_interval',
    'trial_interval_count',
    'trial_requires_payment_method',
    'trial_once_per_customer',
    'prices',
    'medias',
    ...medias.map((_, index) => `medias.${index}`),
    ...attachedFields.flatMap((_, index) => [
      `attached_custom_fields.${index}`,
      `attached_custom_fields.${index}.custom_field_id`,
    ]),
  ];
  drafts.forEach((_, position) => {
    const index = kept.length + position;
    for (const field of PRICE_FIELDS) shown.push(`prices.${index}.${field}`);
  });
  const fieldErrorAt = (position: number) =>
    errorFor(`attached_custom_fields.${position}.custom_field_id`) ?? errorFor(`attached_custom_fields.${position}`);
  const benefitError = (benefitId: string) => {
    const position = sentBenefits.indexOf(benefitId);
    return position >= 0 ? fieldError(setBenefits.error, `benefits.${position}`) : undefined;
  };
  const isPending = create.isPending || update.isPending || setBenefits.isPending;

  return (
    <div className="max-w-3xl space-y-6">
      <form onSubmit={submit} className="space-y-6" noValidate>
        <ApiErrorAlert error={mutation.error} shownFields={shown} />
        {setBenefits.error ? (
          <Alert tone="error" title={`“${current?.name ?? name}” is saved, but its benefits are not.`}>
            The Benefits section says why. Save again to retry.
          </Alert>
        ) : null}
        <Card>
          <CardTitle>Details</CardTitle>
          <div className="space-y-4">
            <Field label="Product name" error={errorFor('name')}>
              <Input value={name} onChange={(event) => setName(event.target.value)} />
            </Field>
            <Field label="Description" hint="Shown to customers at checkout. Optional." error={errorFor('description')}>
              <Textarea value={description} onChange={(event) => setDescription(event.target.value)} />
            </Field>
            <Field
              label="Billing"
              hint={current ? 'How a product is billed is set when it is created.' : undefined}
              error={errorFor('recurring_interval')}
            >
              <Select value={billing} options={BILLING} disabled={Boolean(current)} onValueChange={setBilling} />
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
                meterOptions={props.meterOptions}
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
        {billing !== 'once' && (
          <Card>
            <CardTitle>Free trial</CardTitle>
            <div className="space-y-4">
              <TrialLengthFields
                draft={trial}
                onChange={setTrial}
                noneLabel="No free trial"
                intervalError={errorFor('trial_interval')}
                countError={errorFor('trial_interval_count')}
              />
              {trial.interval !== 'none' && (
                <div className="flex flex-col gap-2">
                  <Checkbox
                    label="Ask for a card to start the trial"
                    checked={trialRequiresCard}
                    onChange={(event) => setTrialRequiresCard(event.target.checked)}
                  />
                  <p className="text-xs text-slate-600">
                    Without a card, the subscription ends with the trial unless the customer adds one in the portal.
                  </p>
                  <Checkbox
                    label="One trial per customer"
                    checked={trialOncePerCustomer}
                    onChange={(event) => setTrialOncePerCustomer(event.target.checked)}
                  />
                </div>
              )}
            </div>
          </Card>
        )}
        <ProductMediaFieldset
          organizationId={organizationId}
          medias={medias}
          onChange={setMedias}
          error={errorFor('medias') ?? medias.map((_, index) => errorFor(`medias.${index}`)).find(Boolean)}
        />
        <ProductBenefitsFieldset
          choices={benefitChoices}
          isLoading={benefits.items === undefined && !benefits.error}
          loadError={benefits.error}
          selected={selectedBenefits}
          onToggle={(benefitId, isSelected) => {
            const next = new Set(selectedBenefits);
            if (isSelected) next.add(benefitId);
            else next.delete(benefitId);
            setSelectedBenefits(next);
          }}
          errorFor={benefitError}
          saveError={setBenefits.error}
          benefitsPath={props.benefitsPath}
        />
        <ProductCustomFieldsFieldset
          fields={fieldChoices}
          isLoading={customFields.items === undefined && !customFields.error}
          loadError={customFields.error}
          attached={attachedFields}
          onToggle={(id, attach) => setAttachedFields(toggleAttachedField(attachedFields, id, attach))}
          onRequiredChange={(id, required) => setAttachedFields(setFieldRequired(attachedFields, id, required))}
          onMove={(id, step) => setAttachedFields(moveAttachedField(attachedFields, id, step))}
          errorAt={fieldErrorAt}
          customFieldsPath={props.customFieldsPath}
        />
        <Button type="submit" isPending={isPending}>
          {current ? 'Save changes' : 'Create product'}
        </Button>
      </form>
      {current && <ProductArchiveCard product={current} onChange={setCurrent} />}
    </div>
  );
}
