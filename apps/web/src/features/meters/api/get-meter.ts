import { queryOptions, useQuery } from '@tanstack/react-query';
import { metersGet } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { METERS_QUERY_KEY } from './get-meters';

export function getMeter(id: string) {
  return metersGet(client, { id });
}

export function getMeterQueryOptions(id: string) {
  return queryOptions({ queryKey: [...METERS_QUERY_KEY, 'detail', id], queryFn: () => getMeter(id) });
}

export function useMeter(id: string) {
  return useQuery(getMeterQueryOptions(id));
}
