import { keepPreviousData, queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { eventsList, type EventsListRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function getEvents(request: EventsListRequest) {
  return (await eventsList(client, request)).result;
}

export const EVENTS_QUERY_KEY = ['events'] as const;

/** Nothing is asked while the page's filters cannot make a request (`request` null). */
export function getEventsQueryOptions(request: EventsListRequest | null) {
  return queryOptions({
    queryKey: [...EVENTS_QUERY_KEY, 'list', request],
    queryFn: request ? () => getEvents(request) : skipToken,
    placeholderData: keepPreviousData,
  });
}

export function useEvents(request: EventsListRequest | null) {
  return useQuery(getEventsQueryOptions(request));
}
