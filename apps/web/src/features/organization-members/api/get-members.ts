import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { organizationsListMembers, type OrganizationsListMembersRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function getMembers(request: OrganizationsListMembersRequest) {
  return (await organizationsListMembers(client, request)).result;
}

export const MEMBERS_QUERY_KEY = ['organization-members'] as const;

export function getMembersQueryOptions(request: OrganizationsListMembersRequest) {
  return queryOptions({
    queryKey: [...MEMBERS_QUERY_KEY, 'list', request],
    queryFn: () => getMembers(request),
    placeholderData: keepPreviousData,
  });
}

export function useMembers(request: OrganizationsListMembersRequest) {
  return useQuery(getMembersQueryOptions(request));
}
