import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { organizationAccessTokensList, type OrganizationAccessTokensListRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function getOrganizationAccessTokens(request: OrganizationAccessTokensListRequest) {
  return (await organizationAccessTokensList(client, request)).result;
}

export const ORGANIZATION_ACCESS_TOKENS_QUERY_KEY = ['organization-access-tokens'] as const;

export function getOrganizationAccessTokensQueryOptions(request: OrganizationAccessTokensListRequest) {
  return queryOptions({
    queryKey: [...ORGANIZATION_ACCESS_TOKENS_QUERY_KEY, 'list', request],
    queryFn: () => getOrganizationAccessTokens(request),
    placeholderData: keepPreviousData,
  });
}

export function useOrganizationAccessTokens(request: OrganizationAccessTokensListRequest) {
  return useQuery(getOrganizationAccessTokensQueryOptions(request));
}
