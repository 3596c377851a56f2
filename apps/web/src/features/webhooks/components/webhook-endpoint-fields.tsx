import type { WebhookEndpoint, WebhookEventType, WebhookFormat } from '@tessera/sdk';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { fieldError } from '../../../lib/api-error';
import { EventTypeCheckboxes } from './event-type-checkboxes';
import { WEBHOOK_FORMAT_OPTIONS, WEBHOOK_FORMATS } from './event-types';

export interface WebhookEndpointValues {
  url: string;
  format: WebhookFormat;
  events: WebhookEventType[];
}

export function webhookEndpointValues(endpoint?: WebhookEndpoint): WebhookEndpointValues {
  return { url: endpoint?.url ?? '', format: endpoint?.format ?? 'raw', events: endpoint?.events ?? [] };
}

/** Fields whose API errors are shown next to the control (the rest go in the alert). */
export const WEBHOOK_ENDPOINT_FIELDS = ['url', 'format', 'events'];

/** Before sending: the API would accept no events, but an endpoint that receives nothing is a mistake. */
export function webhookEndpointErrors(values: WebhookEndpointValues): Record<string, string> {
  const errors: Record<string, string> = {};
  if (values.url.trim() === '') errors.url = 'Enter the URL that receives the events.';
  if (values.events.length === 0) errors.events = 'Choose at least one event.';
  return errors;
}

export interface WebhookEndpointFieldsProps {
  values: WebhookEndpointValues;
  onChange(values: WebhookEndpointValues): void;
  localErrors: Record<string, string>;
  apiError: unknown;
}

export function WebhookEndpointFields({ values, onChange, localErrors, apiError }: WebhookEndpointFieldsProps) {
  const errorFor = (field: string) => localErrors[field] ?? fieldError(apiError, field);
  return (
    <div className="space-y-4">
      <Field label="Endpoint URL" hint="Where Tessera sends a POST request for each event." error={errorFor('url')}>
        <Input
          type="url"
          placeholder="https://example.com/webhooks/tessera"
          value={values.url}
          onChange={(event) => onChange({ ...values, url: event.target.value })}
        />
      </Field>
      <Field label="Format" hint={WEBHOOK_FORMATS[values.format].description} error={errorFor('format')}>
        <Select
          value={values.format}
          options={WEBHOOK_FORMAT_OPTIONS}
          onValueChange={(format) => onChange({ ...values, format: format as WebhookFormat })}
        />
      </Field>
      <EventTypeCheckboxes
        value={values.events}
        onChange={(events) => onChange({ ...values, events })}
        error={errorFor('events')}
      />
    </div>
  );
}
