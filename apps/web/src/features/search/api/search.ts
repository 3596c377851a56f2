import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { searchGet, type SearchGetRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function search(request: SearchGetRequest) {
  return searchGet(client, request);
}

export function getSearchQueryOptions(request: SearchGetRequest) {
  return queryOptions({
    queryKey: ['search', request],
    queryFn: () => search(request),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

/** Nothing is asked for an empty query. */
export function useSearch(request: SearchGetRequest) {
  return useQuery({ ...getSearchQueryOptions(request), enabled: request.query.trim().length > 0 });
}
