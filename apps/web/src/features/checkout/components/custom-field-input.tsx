import { useId } from 'react';
import { Field } from '../../../components/ui/field';
import { Input, Textarea } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import type { CheckoutCustomField, CustomFieldAnswer } from '../logic/custom-fields';

export interface CustomFieldInputProps {
  field: CheckoutCustomField;
  answer: CustomFieldAnswer | undefined;
  error?: string;
  onChange(answer: CustomFieldAnswer): void;
}

// Radix Select has no empty item: an optional select offers this one to take the answer back.
const NO_ANSWER = '__no_answer__';

/** One of the seller's questions, rendered by its type. */
export function CustomFieldInput({ field, answer, error, onChange }: CustomFieldInputProps) {
  const id = useId();
  const label = field.required ? field.label : `${field.label} (optional)`;
  const text = typeof answer === 'string' ? answer : '';

  if (field.type === 'checkbox') {
    const hintId = `${id}-hint`;
    const errorId = `${id}-error`;
    const describedBy = [field.helpText ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
    return (
      <div className="space-y-1">
        <label className="inline-flex items-start gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            className="mt-0.5 size-4 rounded border-slate-400 accent-blue-700"
            checked={answer === true}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            onChange={(event) => onChange(event.target.checked)}
          />
          {label}
        </label>
        {field.helpText && (
          <p id={hintId} className="text-xs text-slate-600">
            {field.helpText}
          </p>
        )}
        {error && (
          <p id={errorId} className="text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
    );
  }

  return (
    <Field label={label} hint={field.helpText} error={error}>
      {field.type === 'select' ? (
        <Select
          value={text}
          placeholder={field.placeholder ?? 'Choose one'}
          options={field.required ? field.options : [{ value: NO_ANSWER, label: 'No answer' }, ...field.options]}
          onValueChange={(value) => onChange(value === NO_ANSWER ? '' : value)}
        />
      ) : field.type === 'text' && field.textarea ? (
        <Textarea value={text} placeholder={field.placeholder} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <Input
          type={field.type === 'date' ? 'date' : 'text'}
          inputMode={field.type === 'number' ? 'numeric' : undefined}
          min={field.type === 'date' ? field.minDate : undefined}
          max={field.type === 'date' ? field.maxDate : undefined}
          value={text}
          placeholder={field.placeholder}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
