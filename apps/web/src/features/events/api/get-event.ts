import { queryOptions, useQuery } from '@tanstack/react-query';
import { eventsGet } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { EVENTS_QUERY_KEY } from './get-events';

export function getEvent(id: string) {
  return eventsGet(client, { id });
}

export function getEventQueryOptions(id: string) {
  return queryOptions({ queryKey: [...EVENTS_QUERY_KEY, 'detail', id], queryFn: () => getEvent(id) });
}

export function useEvent(id: string) {
  return useQuery(getEventQueryOptions(id));
}
