import { keepPreviousData, queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { metersQuantities, type MetersQuantitiesRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { METERS_QUERY_KEY } from './get-meters';

export function getMeterQuantities(request: MetersQuantitiesRequest) {
  return metersQuantities(client, request);
}

/** The meter's buckets over a range; nothing is asked while the range is not valid (`request` null). */
export function getMeterQuantitiesQueryOptions(request: MetersQuantitiesRequest | null) {
  return queryOptions({
    queryKey: [...METERS_QUERY_KEY, 'quantities', request],
    queryFn: request ? () => getMeterQuantities(request) : skipToken,
    placeholderData: keepPreviousData,
  });
}

export function useMeterQuantities(request: MetersQuantitiesRequest | null) {
  return useQuery(getMeterQuantitiesQueryOptions(request));
}
