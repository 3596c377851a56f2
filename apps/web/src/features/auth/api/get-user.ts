import { queryOptions, useQuery } from '@tanstack/react-query';
import { authMe, type User } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { isUnauthorized } from '../../../lib/api-error';

/** The signed-in user, or null when there is no session (401 is an answer here, not an error). */
export async function getUser(): Promise<User | null> {
  try {
    return await authMe(client);
  } catch (error) {
    if (isUnauthorized(error)) return null;
    throw error;
  }
}

export const USER_QUERY_KEY = ['auth', 'user'] as const;

export function getUserQueryOptions() {
  return queryOptions({ queryKey: USER_QUERY_KEY, queryFn: getUser, staleTime: 60_000 });
}

export function useUser() {
  return useQuery(getUserQueryOptions());
}
