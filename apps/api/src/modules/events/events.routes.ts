import { read, write } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { IdParams } from '../../platform/http/schemas.js';
import {
  Event,
  EventListQuery,
  EventNameListQuery,
  EventsIngest,
  EventsIngestResponse,
  ListResourceEvent,
  ListResourceEventName,
} from './events.schemas.js';
import { parseIngestBodyFast } from './events.ingest-body.js';
import { getEvent, ingestEvents, listEventNames, listEvents } from './events.service.js';

const tags = ['events'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

export const eventRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/events/',
    operationId: 'events:list',
    summary: 'List events',
    tags,
    auth: { subjects, scopes: read('events') },
    query: EventListQuery,
    status: 200,
    response: ListResourceEvent,
    handler: (ctx, { query }) => listEvents(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/events/names',
    operationId: 'events:list_names',
    summary: 'List event names',
    tags,
    auth: { subjects, scopes: read('events') },
    query: EventNameListQuery,
    status: 200,
    response: ListResourceEventName,
    handler: (ctx, { query }) => listEventNames(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/events/{id}',
    operationId: 'events:get',
    summary: 'Get an event',
    tags,
    auth: { subjects, scopes: read('events') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: Event,
    handler: (ctx, { params }) => getEvent(ctx, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/events/ingest',
    operationId: 'events:ingest',
    summary: 'Ingest events',
    tags,
    auth: { subjects, scopes: write('events') },
    body: EventsIngest,
    fastBody: parseIngestBodyFast,
    status: 200,
    response: EventsIngestResponse,
    handler: (ctx, { body }) => ingestEvents(ctx, body),
  }),
];
