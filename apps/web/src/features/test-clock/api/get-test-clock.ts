import { queryOptions, useQuery } from '@tanstack/react-query';
import { testClockGet, type TestClock } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export function testClockQueryKey(organizationId: string) {
  return ['test-clock', organizationId] as const;
}

/** The organization's test clock; null where there is none (production servers do not have the route). */
export async function getTestClock(organizationId: string): Promise<TestClock | null> {
  try {
    return await testClockGet(client, { organization_id: organizationId });
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return null;
    throw error;
  }
}

export function getTestClockQueryOptions(organizationId: string) {
  return queryOptions({ queryKey: testClockQueryKey(organizationId), queryFn: () => getTestClock(organizationId) });
}

export function useTestClock(organizationId: string) {
  return useQuery(getTestClockQueryOptions(organizationId));
}
