import { Field } from '../ui/field';
import { Input } from '../ui/input';
import { Select } from '../ui/select';
import { TRIAL_INTERVALS, type TrialDraft } from '../../lib/trials';

export interface TrialLengthFieldsProps {
  draft: TrialDraft;
  onChange(draft: TrialDraft): void;
  /** What choosing no length means here: "No free trial", or "The product’s trial" on a link. */
  noneLabel: string;
  intervalError?: string;
  countError?: string;
}

/** A free trial's length: a unit (or none) and how many (docs/trials.md). */
export function TrialLengthFields({ draft, onChange, noneLabel, intervalError, countError }: TrialLengthFieldsProps) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label="Free trial" error={intervalError}>
        <Select
          value={draft.interval}
          options={[{ value: 'none', label: noneLabel }, ...TRIAL_INTERVALS]}
          onValueChange={(interval) => onChange({ ...draft, interval: interval as TrialDraft['interval'] })}
        />
      </Field>
      {draft.interval !== 'none' && (
        <Field label={`Number of ${draft.interval}s`} hint="From 1 up to two years’ worth." error={countError}>
          <Input
            inputMode="numeric"
            value={draft.count}
            onChange={(event) => onChange({ ...draft, count: event.target.value })}
          />
        </Field>
      )}
    </div>
  );
}
