import type { Benefit, BenefitType } from '@tessera/sdk';
import { useState, type FormEvent, type ReactNode } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Select, type SelectOption } from '../../../components/ui/select';
import { useToast } from '../../../components/ui/toast';
import { fieldError } from '../../../lib/api-error';
import { useCreateBenefit } from '../api/create-benefit';
import { useUpdateBenefit } from '../api/update-benefit';
import { BenefitPropertiesFields } from './benefit-properties-fields';
import { FailedGrants } from './failed-grants';
import { BENEFIT_TYPE_OPTIONS, BENEFIT_TYPES } from './benefit-types';
import {
  benefitCreateBody,
  benefitFormValues,
  benefitUpdateBody,
  canSubmit,
  DESCRIPTION_MAX,
  DESCRIPTION_MIN,
  shownBenefitFields,
  type BenefitFormValues,
} from './benefit-values';

export interface BenefitFormDialogProps {
  organizationId: string;
  /** Given when editing. */
  benefit?: Benefit;
  trigger(open: () => void): ReactNode;
  /** The organization's meters, offered to a meter credit (loaded by the page). */
  meterOptions?: readonly SelectOption[];
  /** Opened at once with these values (a new Discord benefit, once its server is connected). */
  startWith?: Partial<BenefitFormValues>;
}

/** Creates a benefit of any type, or edits one: its description and its type's settings. */
export function BenefitFormDialog({
  organizationId,
  benefit,
  trigger,
  meterOptions,
  startWith,
}: BenefitFormDialogProps) {
  const isEditing = Boolean(benefit);
  const [open, setOpen] = useState(Boolean(startWith));
  const [values, setValues] = useState(() => ({ ...benefitFormValues(benefit), ...startWith }));
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const create = useCreateBenefit();
  const update = useUpdateBenefit();
  const mutation = benefit ? update : create;
  const toast = useToast();
  const set = (patch: Partial<BenefitFormValues>) => setValues({ ...values, ...patch });
  const errorFor = (field: string) => localErrors[field] ?? fieldError(mutation.error, field);

  function openDialog() {
    setValues(benefitFormValues(benefit));
    setLocalErrors({});
    mutation.reset();
    setOpen(true);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit(values, isEditing)) return;
    const done = (saved: Benefit) => {
      toast(benefit ? `Benefit “${saved.description}” saved` : `Benefit “${saved.description}” created`);
      setOpen(false);
    };
    if (benefit) {
      const { body, errors } = benefitUpdateBody(values);
      setLocalErrors(errors);
      if (Object.keys(errors).length === 0) update.mutate({ id: benefit.id, body }, { onSuccess: done });
    } else {
      const { body, errors } = benefitCreateBody(values, organizationId);
      setLocalErrors(errors);
      if (Object.keys(errors).length === 0) create.mutate(body, { onSuccess: done });
    }
  }

  const submittable = canSubmit(values, isEditing);
  return (
    <>
      {trigger(openDialog)}
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={benefit ? `Edit ${benefit.description}` : 'New benefit'}
        size="lg"
      >
        <form onSubmit={submit} className="space-y-4" noValidate>
          <ApiErrorAlert error={mutation.error} shownFields={shownBenefitFields(values)} />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label="Benefit type"
              hint={benefit ? 'The type of a benefit cannot change.' : BENEFIT_TYPES[values.type].description}
              error={errorFor('type')}
            >
              <Select
                value={values.type}
                options={BENEFIT_TYPE_OPTIONS}
                disabled={isEditing}
                onValueChange={(type) => {
                  // Problems found with another type's settings no longer apply.
                  setLocalErrors({});
                  mutation.reset();
                  set({ type: type as BenefitType });
                }}
              />
            </Field>
            <Field
              label="Description"
              hint={`${DESCRIPTION_MIN} to ${DESCRIPTION_MAX} characters, shown to customers.`}
              error={errorFor('description')}
            >
              <Input
                value={values.description}
                maxLength={DESCRIPTION_MAX}
                onChange={(event) => set({ description: event.target.value })}
              />
            </Field>
          </div>
          <BenefitPropertiesFields
            values={values}
            set={set}
            errorFor={errorFor}
            isEditing={isEditing}
            organizationId={organizationId}
            meterOptions={meterOptions}
          />
          {benefit && (benefit.type === 'discord' || benefit.type === 'github_repository') && (
            <FailedGrants benefitId={benefit.id} />
          )}
          <DialogActions>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              {submittable ? 'Cancel' : 'Close'}
            </Button>
            {submittable && (
              <Button type="submit" isPending={mutation.isPending}>
                {benefit ? 'Save benefit' : 'Create benefit'}
              </Button>
            )}
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
