import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { organizationsListInvites, type OrganizationsListInvitesRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function getInvites(request: OrganizationsListInvitesRequest) {
  return (await organizationsListInvites(client, request)).result;
}

export const INVITES_QUERY_KEY = ['organization-invites'] as const;

export function getInvitesQueryOptions(request: OrganizationsListInvitesRequest) {
  return queryOptions({
    queryKey: [...INVITES_QUERY_KEY, 'list', request],
    queryFn: () => getInvites(request),
    placeholderData: keepPreviousData,
  });
}

export function useInvites(request: OrganizationsListInvitesRequest) {
  return useQuery(getInvitesQueryOptions(request));
}
