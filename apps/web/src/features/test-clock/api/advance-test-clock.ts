import { useMutation, useQueryClient } from '@tanstack/react-query';
import { testClockAdvance } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { testClockQueryKey } from './get-test-clock';

export function advanceTestClock({ organizationId, days }: { organizationId: string; days: number }) {
  return testClockAdvance(client, { body: { organization_id: organizationId, days } });
}

export function useAdvanceTestClock(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (days: number) => advanceTestClock({ organizationId, days }),
    // Renewals, charges and expiries ran: every list of the organization may have moved.
    onSuccess: async (advanced) => {
      queryClient.setQueryData(testClockQueryKey(organizationId), {
        organization_id: advanced.organization_id,
        now: advanced.now,
        offset_seconds: advanced.offset_seconds,
      });
      await queryClient.invalidateQueries();
    },
  });
}
