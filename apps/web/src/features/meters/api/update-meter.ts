import { useMutation, useQueryClient } from '@tanstack/react-query';
import { metersUpdate, type MeterUpdate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { METERS_QUERY_KEY } from './get-meters';

/**
 * Renames a meter or changes what it counts. Once the meter counts for a customer, the API refuses a
 * new filter or aggregation with a 422 at `filter` / `aggregation` (`forbidden`), changing nothing.
 */
export function updateMeter({ id, body }: { id: string; body: MeterUpdate }) {
  return metersUpdate(client, { id, body });
}

export function useUpdateMeter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMeter,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: METERS_QUERY_KEY }),
  });
}
