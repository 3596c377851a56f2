import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { eventsListNames, type EventsListNamesRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { EVENTS_QUERY_KEY } from './get-events';

export async function getEventNames(request: EventsListNamesRequest) {
  return (await eventsListNames(client, request)).result;
}

export function getEventNamesQueryOptions(request: EventsListNamesRequest) {
  return queryOptions({
    queryKey: [...EVENTS_QUERY_KEY, 'names', request],
    queryFn: () => getEventNames(request),
    placeholderData: keepPreviousData,
  });
}

/** The organization's event names with their occurrences and first and last times seen. */
export function useEventNames(request: EventsListNamesRequest) {
  return useQuery(getEventNamesQueryOptions(request));
}
