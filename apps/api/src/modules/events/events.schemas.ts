import { z } from 'zod/v4';
import { MetadataInput } from '../../platform/http/metadata.js';
import {
  metadataQuery,
  oneOrList,
  paginationQuery,
  queryString,
  queryDocs,
  queryUuid,
  sortingQuery,
} from '../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../platform/http/schemas.js';
import { Customer } from '../customers/customers.schemas.js';

/** The `name` column's bound (the reference's `String(128)`). */
export const EVENT_NAME_MAX = 128;
const externalId = z.string().min(1).max(500);

export const EventCreate = z
  .object({
    timestamp: DateTime()
      .optional()
      .meta({ description: 'When the event happened (timezone-aware, not in the future); default: now.' }),
    name: z.string().min(1).max(EVENT_NAME_MAX),
    organization_id: Id().nullish(),
    metadata: MetadataInput.optional(),
    customer_id: Id().optional(),
    external_customer_id: externalId.optional(),
    external_id: externalId.optional().meta({
      description:
        "The seller's id for the event: an event whose external_id the organization already has is not inserted " +
        'again (counted in `duplicates`). Two events of one batch with the same external_id are a 422.',
    }),
    parent_id: externalId.nullish().meta({
      description:
        'The parent event: its id or its external_id, of an event of the organization already ingested or ' +
        'earlier in this batch.',
    }),
  })
  .superRefine((event, ctx) => {
    if (event.customer_id === undefined && event.external_customer_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['customer_id'], message: 'Field required', params: { type: 'missing' } });
    }
    if (event.customer_id !== undefined && event.external_customer_id !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['external_customer_id'],
        message: 'Set either customer_id or external_customer_id, not both.',
      });
    }
  })
  .meta({ id: 'EventCreate' });
export type EventCreateInput = z.output<typeof EventCreate>;

export const EventsIngest = z.object({ events: z.array(EventCreate) }).meta({ id: 'EventsIngest' });
export type EventsIngestInput = z.output<typeof EventsIngest>;

export const EventsIngestResponse = z
  .object({ inserted: z.int(), duplicates: z.int() })
  .meta({ id: 'EventsIngestResponse' });

export const EVENT_SOURCES = ['system', 'user'] as const;
export const EventSource = z.enum(EVENT_SOURCES).meta({ id: 'EventSource' });

export const Event = z
  .object({
    id: z.uuid(),
    timestamp: DateTime(),
    organization_id: z.uuid(),
    customer_id: z.uuid().nullable(),
    customer: Customer.nullable(),
    external_customer_id: z.string().nullable(),
    name: z.string(),
    source: EventSource,
    metadata: z.record(z.string(), z.unknown()),
    parent_id: z.uuid().nullable().meta({ description: 'The parent event, or null for a root event.' }),
    child_count: z.int().meta({ description: 'Number of direct child events linked to this event.' }),
    label: z.string().meta({ description: 'Human readable label of the event type.' }),
  })
  .meta({ id: 'Event' });

export const ListResourceEvent = ListResource(Event, 'ListResourceEvent');

/** `?parent_id=` of the list: an event id (a query value is a string; a repeated key is refused). */
const anchor = z
  .uuid({ message: 'Input should be a valid UUID' })
  .optional()
  .meta({
    description:
      'The events under this one: its children with `depth` 0, down to `depth` + 1 generations, every ' +
      'descendant without `depth`.',
  });
const treeAnchor = z.preprocess((value) => (Array.isArray(value) ? { repeated: value } : value), anchor);
queryDocs.set(treeAnchor, anchor);

/** `?depth=`: 0 to 5 generations of a tree. */
const depth = z
  .int()
  .min(0)
  .max(5)
  .optional()
  .meta({
    description:
      'The root events (no parent) and their descendants down to this depth: 0 the roots only, 1 with their ' +
      'children, and so on (at most 5). Without it, every event.',
  });
const treeDepth = z.preprocess(
  (value) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value),
  depth,
);
queryDocs.set(treeDepth, depth);

export const EventListQuery = z.object({
  filter: queryString('A meter filter, as JSON, the events must pass.'),
  start_timestamp: DateTime().optional(),
  end_timestamp: DateTime().optional(),
  organization_id: oneOrList(Id()),
  customer_id: oneOrList(Id()),
  external_customer_id: oneOrList(externalId),
  meter_id: queryUuid(),
  name: oneOrList(z.string().min(1).max(EVENT_NAME_MAX)),
  source: oneOrList(EventSource),
  parent_id: treeAnchor,
  depth: treeDepth,
  ...paginationQuery,
  sorting: sortingQuery(['timestamp'], ['-timestamp']),
  metadata: metadataQuery(),
});
export type EventListParams = z.output<typeof EventListQuery>;

export const EventName = z
  .object({
    name: z.string(),
    source: EventSource,
    occurrences: z.int(),
    first_seen: DateTime(),
    last_seen: DateTime(),
  })
  .meta({ id: 'EventName' });

export const ListResourceEventName = ListResource(EventName, 'ListResourceEventName');

export const EventNameListQuery = z.object({
  organization_id: oneOrList(Id()),
  customer_id: oneOrList(Id()),
  external_customer_id: oneOrList(externalId),
  source: oneOrList(EventSource),
  query: queryString(),
  ...paginationQuery,
  sorting: sortingQuery(['name', 'occurrences', 'first_seen', 'last_seen'], ['-last_seen']),
});
export type EventNameListParams = z.output<typeof EventNameListQuery>;
