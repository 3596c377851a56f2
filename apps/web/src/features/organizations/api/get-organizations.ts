import { queryOptions, useQuery } from '@tanstack/react-query';
import { organizationsList } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

/** Every organization the signed-in user belongs to (a person has a handful; 100 covers them). */
export async function getOrganizations() {
  const page = await organizationsList(client, { limit: 100, sorting: ['name'] });
  return page.result.items;
}

export const ORGANIZATIONS_QUERY_KEY = ['organizations'] as const;

export function getOrganizationsQueryOptions() {
  return queryOptions({ queryKey: [...ORGANIZATIONS_QUERY_KEY, 'list'], queryFn: getOrganizations });
}

export function useOrganizations() {
  return useQuery(getOrganizationsQueryOptions());
}
