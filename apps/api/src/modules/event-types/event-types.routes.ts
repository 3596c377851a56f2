import { read, write } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { IdParams } from '../../platform/http/schemas.js';
import {
  EventType,
  EventTypesListQuery,
  EventTypeUpdate,
  ListResourceEventTypeWithStats,
} from './event-types.schemas.js';
import { listEventTypes, updateEventType } from './event-types.service.js';

const tags = ['event-types'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

export const eventTypeRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/event-types/',
    operationId: 'event-types:list',
    summary: 'List event types with aggregated statistics',
    tags,
    auth: { subjects, scopes: read('events') },
    query: EventTypesListQuery,
    status: 200,
    response: ListResourceEventTypeWithStats,
    handler: (ctx, { query }) => listEventTypes(ctx, query),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/event-types/{id}',
    operationId: 'event-types:update',
    summary: "Update an event type's label",
    tags,
    auth: { subjects, scopes: write('events') },
    params: IdParams,
    body: EventTypeUpdate,
    errors: ['ResourceNotFound'],
    status: 200,
    response: EventType,
    handler: (ctx, { params, body }) => updateEventType(ctx, params.id, body),
  }),
];
