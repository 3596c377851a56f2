import { schemas, type WebhookEventType, type WebhookFormat } from '@tessera/sdk';

/** What the generated schema is at run time: a lazy wrapper around a zod enum. */
interface LazyEnum<T> {
  unwrap(): { options: T[] };
}

/**
 * Every event type the API accepts, read from the SDK's generated enum: a type added to the API shows
 * up here after `npm run openapi`, with nothing to keep in step by hand.
 */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = (
  schemas.WebhookEventTypeSchema as unknown as LazyEnum<WebhookEventType>
).unwrap().options;

export interface EventTypeGroup {
  /** `order` for `order.paid`, `benefit_grant` for `benefit_grant.created`. */
  resource: string;
  label: string;
  types: WebhookEventType[];
}

function resourceLabel(resource: string): string {
  const words = resource.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Event types grouped by the resource before the dot, in the API's order. */
export function groupEventTypes(types: readonly WebhookEventType[]): EventTypeGroup[] {
  const groups = new Map<string, EventTypeGroup>();
  for (const type of types) {
    const resource = type.split('.')[0]!;
    const group = groups.get(resource) ?? { resource, label: resourceLabel(resource), types: [] };
    group.types.push(type);
    groups.set(resource, group);
  }
  return [...groups.values()];
}

/** Words for each payload format; the Record makes a format added to the API a type error until described. */
export const WEBHOOK_FORMATS: Record<WebhookFormat, { label: string; description: string }> = {
  raw: { label: 'Raw JSON', description: 'The event as JSON, signed with Standard Webhooks headers.' },
  discord: { label: 'Discord', description: 'A message for a Discord channel webhook URL.' },
  slack: { label: 'Slack', description: 'A message for a Slack incoming webhook URL.' },
};

export const WEBHOOK_FORMAT_OPTIONS = (Object.keys(WEBHOOK_FORMATS) as WebhookFormat[]).map((format) => ({
  value: format,
  label: WEBHOOK_FORMATS[format].label,
}));

/** The event type of a delivered payload (`{"type": "order.paid", ...}`), or undefined when unreadable. */
export function payloadEventType(payload: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(payload);
    if (parsed && typeof parsed === 'object' && 'type' in parsed && typeof parsed.type === 'string') return parsed.type;
  } catch {
    // Not JSON: shown as it is.
  }
  return undefined;
}

/** A payload indented for reading; text that is not JSON is returned unchanged. */
export function prettyPayload(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}
