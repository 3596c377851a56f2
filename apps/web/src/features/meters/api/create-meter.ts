import { useMutation, useQueryClient } from '@tanstack/react-query';
import { metersCreate, type MeterCreate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { METERS_QUERY_KEY } from './get-meters';

export function createMeter(body: MeterCreate) {
  return metersCreate(client, { body });
}

export function useCreateMeter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createMeter,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: METERS_QUERY_KEY }),
  });
}
