import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { metersList, type MetersListRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function getMeters(request: MetersListRequest) {
  return (await metersList(client, request)).result;
}

export const METERS_QUERY_KEY = ['meters'] as const;

export function getMetersQueryOptions(request: MetersListRequest) {
  return queryOptions({
    queryKey: [...METERS_QUERY_KEY, 'list', request],
    queryFn: () => getMeters(request),
    placeholderData: keepPreviousData,
  });
}

export function useMeters(request: MetersListRequest) {
  return useQuery(getMetersQueryOptions(request));
}
