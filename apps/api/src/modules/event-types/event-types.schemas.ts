import { z } from 'zod/v4';
import {
  oneOrList,
  paginationQuery,
  queryBool,
  queryString,
  queryUuid,
  sortingQuery,
} from '../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../platform/http/schemas.js';
import { EVENT_NAME_MAX, EventSource } from '../events/events.schemas.js';

const labelFields = {
  label: z.string(),
  label_property_selector: z.string().nullable().optional().meta({
    description: 'A property of the events whose value labels each event (stored and echoed).',
  }),
};

/** The reference's `EventType`: the answer of an update. */
export const EventType = z
  .object({
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    id: z.uuid(),
    name: z.string(),
    ...labelFields,
    organization_id: z.uuid(),
  })
  .meta({ id: 'EventType' });

/** One (event name, source) of the list with the statistics of its events under the list's filters. */
export const EventTypeWithStats = z
  .object({
    id: z.uuid().nullable().optional(),
    created_at: DateTime().nullable().optional(),
    modified_at: DateTime().nullable().optional(),
    name: z.string(),
    ...labelFields,
    organization_id: z.uuid(),
    source: EventSource,
    occurrences: z.int(),
    first_seen: DateTime(),
    last_seen: DateTime(),
  })
  .meta({ id: 'EventTypeWithStats' });

export const ListResourceEventTypeWithStats = ListResource(EventTypeWithStats, 'ListResourceEventTypeWithStats');

export const EVENT_TYPE_SORT_KEYS = ['name', 'label', 'occurrences', 'first_seen', 'last_seen'] as const;

export const EventTypesListQuery = z.object({
  organization_id: oneOrList(Id(), 'Filter by organization ID.'),
  customer_id: oneOrList(Id(), 'Filter by customer ID.'),
  external_customer_id: oneOrList(z.string().min(1).max(500), 'Filter by external customer ID.'),
  query: queryString('Query to filter event types by name or label.'),
  root_events: queryBool().meta({ description: 'Count only root events (without a parent).' }),
  parent_id: queryUuid(),
  source: EventSource.optional().meta({ description: 'Filter by event source (system or user).' }),
  ...paginationQuery,
  sorting: sortingQuery(EVENT_TYPE_SORT_KEYS, ['-last_seen']),
});
export type EventTypesListParams = z.output<typeof EventTypesListQuery>;

export const EventTypeUpdate = z
  .object({
    label: z.string().min(1).max(EVENT_NAME_MAX),
    label_property_selector: z.string().min(1).max(EVENT_NAME_MAX).nullable().optional(),
  })
  .meta({ id: 'EventTypeUpdate' });
export type EventTypeUpdateInput = z.output<typeof EventTypeUpdate>;
