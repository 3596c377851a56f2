import type { CustomField, CustomFieldType } from '@tessera/sdk';
import { useState, type FormEvent, type ReactNode } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Checkbox, Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { useToast } from '../../../components/ui/toast';
import { describeError } from '../../../lib/api-error';
import { useCreateCustomField } from '../api/create-custom-field';
import { useUpdateCustomField } from '../api/update-custom-field';
import {
  CUSTOM_FIELD_TYPE_OPTIONS,
  CUSTOM_FIELD_TYPES,
  customFieldCreateBody,
  customFieldFormValues,
  customFieldUpdateBody,
  fieldSlug,
  type CustomFieldFormValues,
} from './custom-field-values';

type Values = CustomFieldFormValues;
type Patch = (patch: Partial<Values>) => void;
type ErrorFor = (field: string) => string | undefined;

function TypeProperties({ values, set, errorFor }: { values: Values; set: Patch; errorFor: ErrorFor }) {
  switch (values.type) {
    case 'text':
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          <Checkbox
            className="sm:col-span-2"
            label="Multi-line answer (text area)"
            checked={values.textarea}
            onChange={(event) => set({ textarea: event.target.checked })}
          />
          <Field label="Minimum length" hint="Optional, in characters." error={errorFor('properties.min_length')}>
            <Input
              inputMode="numeric"
              value={values.minLength}
              onChange={(event) => set({ minLength: event.target.value })}
            />
          </Field>
          <Field label="Maximum length" hint="Optional, in characters." error={errorFor('properties.max_length')}>
            <Input
              inputMode="numeric"
              value={values.maxLength}
              onChange={(event) => set({ maxLength: event.target.value })}
            />
          </Field>
        </div>
      );
    case 'number':
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Minimum" hint="Optional, inclusive." error={errorFor('properties.ge')}>
            <Input
              inputMode="numeric"
              value={values.minimum}
              onChange={(event) => set({ minimum: event.target.value })}
            />
          </Field>
          <Field label="Maximum" hint="Optional, inclusive." error={errorFor('properties.le')}>
            <Input
              inputMode="numeric"
              value={values.maximum}
              onChange={(event) => set({ maximum: event.target.value })}
            />
          </Field>
        </div>
      );
    case 'date':
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Earliest date" hint="Optional." error={errorFor('properties.ge')}>
            <Input type="date" value={values.earliest} onChange={(event) => set({ earliest: event.target.value })} />
          </Field>
          <Field label="Latest date" hint="Optional." error={errorFor('properties.le')}>
            <Input type="date" value={values.latest} onChange={(event) => set({ latest: event.target.value })} />
          </Field>
        </div>
      );
    case 'checkbox':
      return null;
    case 'select':
      return <SelectOptions values={values} set={set} errorFor={errorFor} />;
  }
}

function SelectOptions({ values, set, errorFor }: { values: Values; set: Patch; errorFor: ErrorFor }) {
  const update = (index: number, patch: Partial<Values['options'][number]>) =>
    set({ options: values.options.map((option, at) => (at === index ? { ...option, ...patch } : option)) });
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-800">Options</legend>
      {values.options.map((option, index) => (
        <div key={index} className="grid items-end gap-3 sm:grid-cols-[1fr_1fr_auto]">
          <Field label={`Option ${index + 1} label`} error={errorFor(`properties.options.${index}.label`)}>
            <Input
              value={option.label}
              onChange={(event) => {
                const label = event.target.value;
                // The stored value follows the label until it is edited on its own.
                const follows = option.value === '' || option.value === fieldSlug(option.label);
                update(index, follows ? { label, value: fieldSlug(label) } : { label });
              }}
            />
          </Field>
          <Field label={`Option ${index + 1} value`} error={errorFor(`properties.options.${index}.value`)}>
            <Input value={option.value} onChange={(event) => update(index, { value: event.target.value })} />
          </Field>
          <Button
            variant="ghost"
            disabled={values.options.length === 1}
            onClick={() => set({ options: values.options.filter((_, at) => at !== index) })}
          >
            Remove option {index + 1}
          </Button>
        </div>
      ))}
      {errorFor('properties.options') && <p className="text-sm text-red-700">{errorFor('properties.options')}</p>}
      <Button
        variant="secondary"
        size="sm"
        onClick={() => set({ options: [...values.options, { value: '', label: '' }] })}
      >
        Add option
      </Button>
    </fieldset>
  );
}

export interface CustomFieldFormDialogProps {
  organizationId: string;
  /** Given when editing. */
  field?: CustomField;
  trigger(open: () => void): ReactNode;
}

export function CustomFieldFormDialog({ organizationId, field, trigger }: CustomFieldFormDialogProps) {
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState(() => customFieldFormValues(field));
  const [isSlugEdited, setIsSlugEdited] = useState(Boolean(field));
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const create = useCreateCustomField();
  const update = useUpdateCustomField();
  const mutation = field ? update : create;
  const toast = useToast();
  const set: Patch = (patch) => setValues({ ...values, ...patch });
  const apiIssues = mutation.error ? describeError(mutation.error).issues : [];
  const errorFor: ErrorFor = (name) => localErrors[name] ?? apiIssues.find((issue) => issue.field === name)?.message;

  function openDialog() {
    setValues(customFieldFormValues(field));
    setIsSlugEdited(Boolean(field));
    setLocalErrors({});
    mutation.reset();
    setOpen(true);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const done = (saved: CustomField) => {
      toast(field ? `Custom field “${saved.name}” saved` : `Custom field “${saved.name}” created`);
      setOpen(false);
    };
    if (field) {
      const { body, errors } = customFieldUpdateBody(values);
      setLocalErrors(errors);
      if (Object.keys(errors).length === 0) update.mutate({ id: field.id, body }, { onSuccess: done });
    } else {
      const { body, errors } = customFieldCreateBody(values, organizationId);
      setLocalErrors(errors);
      if (Object.keys(errors).length === 0) create.mutate(body, { onSuccess: done });
    }
  }

  // Every problem the form can place next to a control; anything else is listed in the alert.
  const shown = [
    'name',
    'slug',
    'type',
    'properties.form_label',
    'properties.form_placeholder',
    'properties.form_help_text',
    'properties.min_length',
    'properties.max_length',
    'properties.ge',
    'properties.le',
    'properties.options',
    ...values.options.flatMap((_, index) => [`properties.options.${index}.label`, `properties.options.${index}.value`]),
  ];
  const placeholderApplies = values.type !== 'checkbox';
  return (
    <>
      {trigger(openDialog)}
      <Dialog open={open} onOpenChange={setOpen} title={field ? `Edit ${field.name}` : 'New custom field'} size="lg">
        <form onSubmit={submit} className="space-y-4" noValidate>
          <ApiErrorAlert error={mutation.error} shownFields={shown} />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label="Type"
              hint={
                field ? 'The type cannot change once answers may exist.' : CUSTOM_FIELD_TYPES[values.type].description
              }
              error={errorFor('type')}
            >
              <Select
                value={values.type}
                options={CUSTOM_FIELD_TYPE_OPTIONS}
                disabled={Boolean(field)}
                onValueChange={(type) => set({ type: type as CustomFieldType })}
              />
            </Field>
            <Field label="Name" hint="For you; customers see the label." error={errorFor('name')}>
              <Input
                value={values.name}
                onChange={(event) =>
                  set(
                    isSlugEdited
                      ? { name: event.target.value }
                      : { name: event.target.value, slug: fieldSlug(event.target.value) },
                  )
                }
              />
            </Field>
            <Field
              label="Slug"
              hint="The key of the answer in checkout and order data: letters, digits, - and _."
              error={errorFor('slug')}
            >
              <Input
                value={values.slug}
                onChange={(event) => {
                  setIsSlugEdited(true);
                  set({ slug: event.target.value });
                }}
              />
            </Field>
            <Field
              label="Label"
              hint="Shown to customers above the control; the name when empty."
              error={errorFor('properties.form_label')}
            >
              <Input value={values.label} onChange={(event) => set({ label: event.target.value })} />
            </Field>
            {placeholderApplies && (
              <Field label="Placeholder" hint="Optional." error={errorFor('properties.form_placeholder')}>
                <Input value={values.placeholder} onChange={(event) => set({ placeholder: event.target.value })} />
              </Field>
            )}
            <Field
              label="Help text"
              hint="Optional; shown under the control."
              error={errorFor('properties.form_help_text')}
            >
              <Input value={values.helpText} onChange={(event) => set({ helpText: event.target.value })} />
            </Field>
          </div>
          <TypeProperties values={values} set={set} errorFor={errorFor} />
          <DialogActions>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" isPending={mutation.isPending}>
              {field ? 'Save custom field' : 'Create custom field'}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
