import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Select, type SelectOption } from '../../../components/ui/select';
import { AMOUNT_TYPES, type AmountType, type PriceDraft } from './prices';

export interface PriceFieldsProps {
  draft: PriceDraft;
  /** Position among all prices sent (existing ones first): the index the API's errors name. */
  index: number;
  /** Ordinal shown to people among the new prices. */
  number: number;
  errorFor(field: string): string | undefined;
  onChange(draft: PriceDraft): void;
  onRemove?: () => void;
  /** The organization's meters, for a metered price (an ID is typed when there are none to pick). */
  meterOptions?: readonly SelectOption[];
}

export function PriceFields({
  draft,
  index,
  number,
  errorFor,
  onChange,
  onRemove,
  meterOptions = [],
}: PriceFieldsProps) {
  const set = (patch: Partial<PriceDraft>) => onChange({ ...draft, ...patch });
  const error = (field: string) => errorFor(`prices.${index}.${field}`);
  const suffix = number > 1 ? ` ${number}` : '';
  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-4">
      <legend className="px-1 text-sm font-medium text-slate-800">Price{suffix}</legend>
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label={`Price type${suffix}`}>
          <Select
            value={draft.amountType}
            options={AMOUNT_TYPES}
            onValueChange={(value) => set({ amountType: value as AmountType })}
          />
        </Field>
        {draft.amountType !== 'free' && (
          <Field label={`Currency${suffix}`} error={error('price_currency')}>
            <Input value={draft.currency} maxLength={3} onChange={(event) => set({ currency: event.target.value })} />
          </Field>
        )}
        {draft.amountType === 'fixed' && (
          <Field
            label={`Amount${suffix}`}
            hint="In the currency's main unit, e.g. 12.50."
            error={error('price_amount')}
          >
            <Input inputMode="decimal" value={draft.amount} onChange={(event) => set({ amount: event.target.value })} />
          </Field>
        )}
      </div>
      {draft.amountType === 'custom' && (
        <div className="grid gap-3 sm:grid-cols-3">
          <Field label={`Minimum amount${suffix}`} error={error('minimum_amount')}>
            <Input
              inputMode="decimal"
              value={draft.minimum}
              onChange={(event) => set({ minimum: event.target.value })}
            />
          </Field>
          <Field label={`Maximum amount${suffix}`} error={error('maximum_amount')}>
            <Input
              inputMode="decimal"
              value={draft.maximum}
              onChange={(event) => set({ maximum: event.target.value })}
            />
          </Field>
          <Field label={`Suggested amount${suffix}`} error={error('preset_amount')}>
            <Input inputMode="decimal" value={draft.preset} onChange={(event) => set({ preset: event.target.value })} />
          </Field>
        </div>
      )}
      {draft.amountType === 'metered_unit' && (
        <div className="grid gap-3 sm:grid-cols-3">
          {meterOptions.length > 0 ? (
            <Field label={`Meter${suffix}`} error={error('meter_id')}>
              <Select
                value={draft.meterId}
                options={meterOptions}
                placeholder="Choose a meter"
                onValueChange={(meterId) => set({ meterId })}
              />
            </Field>
          ) : (
            <Field label={`Meter ID${suffix}`} hint="Copy it from the meter’s page (Meters)." error={error('meter_id')}>
              <Input value={draft.meterId} onChange={(event) => set({ meterId: event.target.value })} />
            </Field>
          )}
          <Field label={`Price per unit in cents${suffix}`} error={error('unit_amount')}>
            <Input
              inputMode="decimal"
              value={draft.unitAmount}
              onChange={(event) => set({ unitAmount: event.target.value })}
            />
          </Field>
          <Field label={`Cap per period${suffix}`} hint="Optional." error={error('cap_amount')}>
            <Input inputMode="decimal" value={draft.cap} onChange={(event) => set({ cap: event.target.value })} />
          </Field>
        </div>
      )}
      {onRemove && (
        <Button variant="ghost" size="sm" onClick={onRemove}>
          Remove price{suffix}
        </Button>
      )}
    </fieldset>
  );
}
