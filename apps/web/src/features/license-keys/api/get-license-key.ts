import { queryOptions, useQuery } from '@tanstack/react-query';
import { licenseKeysGet } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { LICENSE_KEYS_QUERY_KEY } from './get-license-keys';

/** A license key with its activations. */
export function getLicenseKey(id: string) {
  return licenseKeysGet(client, { id });
}

export function getLicenseKeyQueryOptions(id: string) {
  return queryOptions({ queryKey: [...LICENSE_KEYS_QUERY_KEY, 'detail', id], queryFn: () => getLicenseKey(id) });
}

export function useLicenseKey(id: string) {
  return useQuery(getLicenseKeyQueryOptions(id));
}
