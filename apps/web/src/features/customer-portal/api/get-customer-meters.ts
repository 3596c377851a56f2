import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { customerPortalCustomerMetersList, type CustomerPortalCustomerMetersListRequest } from '@tessera/sdk';
import type { PortalClient } from './portal-client';
import { usePortalSession } from '../session/portal-session';

export async function getCustomerMeters(client: PortalClient, request: CustomerPortalCustomerMetersListRequest) {
  return (await customerPortalCustomerMetersList(client.core, request, client.auth)).result;
}

export function getCustomerMetersQueryOptions(
  sessionKey: readonly unknown[],
  client: PortalClient,
  request: CustomerPortalCustomerMetersListRequest,
) {
  return queryOptions({
    queryKey: [...sessionKey, 'meters', 'list', request],
    queryFn: () => getCustomerMeters(client, request),
    placeholderData: keepPreviousData,
  });
}

/** The customer's meters: consumed, credited and balance of the current period. */
export function useCustomerMeters(request: CustomerPortalCustomerMetersListRequest) {
  const { queryKey, client } = usePortalSession();
  return useQuery(getCustomerMetersQueryOptions(queryKey, client, request));
}
