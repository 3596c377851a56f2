import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { customerPortalDownloadablesList, type CustomerPortalDownloadablesListRequest } from '@tessera/sdk';
import type { PortalClient } from './portal-client';
import { usePortalSession } from '../session/portal-session';

export async function getDownloadables(client: PortalClient, request: CustomerPortalDownloadablesListRequest) {
  return (await customerPortalDownloadablesList(client.core, request, client.auth)).result;
}

export function getDownloadablesQueryOptions(
  sessionKey: readonly unknown[],
  client: PortalClient,
  request: CustomerPortalDownloadablesListRequest,
) {
  return queryOptions({
    queryKey: [...sessionKey, 'downloadables', 'list', request],
    queryFn: () => getDownloadables(client, request),
    placeholderData: keepPreviousData,
    // Each download link expires (10 minutes): the list is read again before the links it shows do.
    refetchInterval: 5 * 60_000,
  });
}

/** The files the customer's benefits grant, each with a download link that expires. */
export function useDownloadables(request: CustomerPortalDownloadablesListRequest) {
  const { queryKey, client } = usePortalSession();
  return useQuery(getDownloadablesQueryOptions(queryKey, client, request));
}
