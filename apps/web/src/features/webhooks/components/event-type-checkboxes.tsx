import type { WebhookEventType } from '@tessera/sdk';
import { useId } from 'react';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/input';
import { groupEventTypes, WEBHOOK_EVENT_TYPES } from './event-types';

const GROUPS = groupEventTypes(WEBHOOK_EVENT_TYPES);

export interface EventTypeCheckboxesProps {
  value: readonly WebhookEventType[];
  onChange(value: WebhookEventType[]): void;
  error?: string;
}

/** Every event type as a checkbox, grouped by resource, with shortcuts for all and none. */
export function EventTypeCheckboxes({ value, onChange, error }: EventTypeCheckboxesProps) {
  const errorId = useId();
  const toggle = (type: WebhookEventType, checked: boolean) =>
    onChange(checked ? [...value, type] : value.filter((item) => item !== type));
  return (
    <fieldset className="space-y-2" aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-medium text-slate-800">Events</legend>
      <p className="text-xs text-slate-600">
        {value.length} of {WEBHOOK_EVENT_TYPES.length} selected. Only selected events are sent to this endpoint.
      </p>
      <div className="flex gap-2">
        <Button size="sm" variant="secondary" onClick={() => onChange([...WEBHOOK_EVENT_TYPES])}>
          Select all events
        </Button>
        <Button size="sm" variant="ghost" onClick={() => onChange([])}>
          Clear events
        </Button>
      </div>
      <div className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
        {GROUPS.map((group) => (
          <div key={group.resource} role="group" aria-label={group.label}>
            <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{group.label}</p>
            <div className="mt-1 flex flex-col gap-2">
              {group.types.map((type) => (
                <Checkbox
                  key={type}
                  label={type}
                  className="font-mono text-xs"
                  checked={value.includes(type)}
                  onChange={(event) => toggle(type, event.target.checked)}
                />
              ))}
            </div>
          </div>
        ))}
      </div>
      {error && (
        <p id={errorId} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
