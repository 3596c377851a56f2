import type { Meter } from '@tessera/sdk';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert, ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { useToast } from '../../../components/ui/toast';
import { describeError, fieldError } from '../../../lib/api-error';
import { useCreateMeter } from '../api/create-meter';
import { useUpdateMeter } from '../api/update-meter';
import {
  AGGREGATIONS,
  meterBody,
  meterDraft,
  type AggregationFunction,
  type DraftErrors,
} from '../logic/meter-definition';
import { FilterBuilder } from './filter-builder';

export interface MeterFormDialogProps {
  organizationId: string;
  /** Given when editing. */
  meter?: Meter;
  trigger(open: () => void): ReactNode;
  /** After a create, with the new meter (the page opens it). */
  onCreated?(meter: Meter): void;
}

/** Creates a meter, or edits one: its name, the events it counts (filter) and how (aggregation). */
export function MeterFormDialog({ organizationId, meter, trigger, onCreated }: MeterFormDialogProps) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(() => meterDraft(meter));
  const [localErrors, setLocalErrors] = useState<DraftErrors>({});
  const create = useCreateMeter();
  const update = useUpdateMeter();
  const mutation = meter ? update : create;
  const toast = useToast();
  const errorFor = (field: string) => localErrors[field] ?? fieldError(mutation.error, field);
  // The API refuses a new filter or aggregation once the meter has counted for a customer.
  const frozen = meter
    ? describeError(mutation.error).issues.filter((issue) => issue.field === 'filter' || issue.field === 'aggregation')
    : [];

  function openDialog() {
    setDraft(meterDraft(meter));
    setLocalErrors({});
    mutation.reset();
    setOpen(true);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const { body, errors } = meterBody(draft);
    setLocalErrors(errors);
    if (Object.keys(errors).length > 0) return;
    if (meter) {
      update.mutate(
        { id: meter.id, body: { name: body.name, filter: body.filter, aggregation: body.aggregation } },
        {
          onSuccess: (saved) => {
            toast(`Meter “${saved.name}” saved`);
            setOpen(false);
          },
        },
      );
    } else {
      create.mutate(
        { ...body, organization_id: organizationId },
        {
          onSuccess: (saved) => {
            toast(`Meter “${saved.name}” created`);
            setOpen(false);
            onCreated?.(saved);
          },
        },
      );
    }
  }

  const usesProperty = draft.aggregation !== 'count';
  return (
    <>
      {trigger(openDialog)}
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={meter ? `Edit ${meter.name}` : 'New meter'}
        description="A meter turns the events you send into units: it keeps the events its filter matches and aggregates them."
        size="lg"
      >
        <form onSubmit={submit} className="space-y-5" noValidate>
          {frozen.length > 0 ? (
            <Alert tone="error" title="What this meter counts can no longer change">
              <p>{frozen[0]!.message}</p>
              <p className="mt-1">
                It has already counted events for customers (or a price bills it), so changing its filter or aggregation
                would rewrite usage already measured. You can still rename it; to count something else, create a new
                meter.
              </p>
            </Alert>
          ) : (
            <ApiErrorAlert error={mutation.error} shownFields={['name', 'aggregation.property']} />
          )}
          <Field label="Meter name" hint="Shown to customers on invoices and in their portal." error={errorFor('name')}>
            <Input value={draft.name} onChange={(event) => setDraft({ ...draft, name: event.target.value })} />
          </Field>
          <div className="space-y-2">
            <h3 className="text-sm font-medium text-slate-800">Filter</h3>
            <p className="text-xs text-slate-600">
              A property is <code>name</code>, <code>source</code>, <code>timestamp</code> or a key of the event’s
              metadata. Values like <code>42</code> and <code>true</code> compare as numbers and booleans; put a value
              in quotes to compare it as text.
            </p>
            <FilterBuilder
              value={draft.filter}
              onChange={(filter) => setDraft({ ...draft, filter })}
              errorFor={errorFor}
            />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Aggregation" error={usesProperty ? undefined : errorFor('aggregation')}>
              <Select
                value={draft.aggregation}
                options={AGGREGATIONS}
                onValueChange={(value) => setDraft({ ...draft, aggregation: value as AggregationFunction })}
              />
            </Field>
            {usesProperty && (
              <Field
                label="Aggregated property"
                hint="A metadata key holding numbers (strings and missing keys are ignored)."
                error={errorFor('aggregation.property') ?? errorFor('aggregation')}
              >
                <Input
                  value={draft.aggregationProperty}
                  placeholder="tokens"
                  onChange={(event) => setDraft({ ...draft, aggregationProperty: event.target.value })}
                />
              </Field>
            )}
          </div>
          <DialogActions>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" isPending={mutation.isPending}>
              {meter ? 'Save meter' : 'Create meter'}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
