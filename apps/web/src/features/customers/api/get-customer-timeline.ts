import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { customersGetTimeline, type CustomersGetTimelineRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { CUSTOMERS_QUERY_KEY } from './get-customers';

export async function getCustomerTimeline(request: CustomersGetTimelineRequest) {
  return (await customersGetTimeline(client, request)).result;
}

export function getCustomerTimelineQueryOptions(request: CustomersGetTimelineRequest) {
  return queryOptions({
    queryKey: [...CUSTOMERS_QUERY_KEY, 'timeline', request],
    queryFn: () => getCustomerTimeline(request),
    placeholderData: keepPreviousData,
  });
}

export function useCustomerTimeline(request: CustomersGetTimelineRequest) {
  return useQuery(getCustomerTimelineQueryOptions(request));
}
