import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { customerMetersList, type CustomerMetersListRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function getCustomerMeters(request: CustomerMetersListRequest) {
  return (await customerMetersList(client, request)).result;
}

export const CUSTOMER_METERS_QUERY_KEY = ['customer-meters'] as const;

export function getCustomerMetersQueryOptions(request: CustomerMetersListRequest) {
  return queryOptions({
    queryKey: [...CUSTOMER_METERS_QUERY_KEY, 'list', request],
    queryFn: () => getCustomerMeters(request),
    placeholderData: keepPreviousData,
  });
}

/** Consumed, credited and balance per (customer, meter): computed by the API when read. */
export function useCustomerMeters(request: CustomerMetersListRequest) {
  return useQuery(getCustomerMetersQueryOptions(request));
}
