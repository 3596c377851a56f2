import { useQuery } from '@tanstack/react-query';
import { testClockGet } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

/**
 * How far the organization's test clock runs ahead of the server's, in seconds (0 without one, and on
 * production servers, which do not have the route). Shares the test clock's query key, so advancing the
 * clock refreshes it.
 */
export function useOrganizationClockOffset(organizationId: string) {
  return useQuery({
    queryKey: ['test-clock', organizationId] as const,
    queryFn: async () => {
      try {
        return await testClockGet(client, { organization_id: organizationId });
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return null;
        throw error;
      }
    },
    select: (clock) => clock?.offset_seconds ?? 0,
  });
}
