import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { licenseKeysList, type LicenseKeysListRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function getLicenseKeys(request: LicenseKeysListRequest) {
  return (await licenseKeysList(client, request)).result;
}

export const LICENSE_KEYS_QUERY_KEY = ['license-keys'] as const;

export function getLicenseKeysQueryOptions(request: LicenseKeysListRequest) {
  return queryOptions({
    queryKey: [...LICENSE_KEYS_QUERY_KEY, 'list', request],
    queryFn: () => getLicenseKeys(request),
    placeholderData: keepPreviousData,
  });
}

export function useLicenseKeys(request: LicenseKeysListRequest) {
  return useQuery(getLicenseKeysQueryOptions(request));
}
