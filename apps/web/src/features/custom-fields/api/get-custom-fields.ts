import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { customFieldsList, type CustomFieldsListRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function getCustomFields(request: CustomFieldsListRequest) {
  return (await customFieldsList(client, request)).result;
}

export const CUSTOM_FIELDS_QUERY_KEY = ['custom-fields'] as const;

export function getCustomFieldsQueryOptions(request: CustomFieldsListRequest) {
  return queryOptions({
    queryKey: [...CUSTOM_FIELDS_QUERY_KEY, 'list', request],
    queryFn: () => getCustomFields(request),
    placeholderData: keepPreviousData,
  });
}

export function useCustomFields(request: CustomFieldsListRequest) {
  return useQuery(getCustomFieldsQueryOptions(request));
}
