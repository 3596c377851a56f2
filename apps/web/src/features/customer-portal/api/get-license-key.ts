import { queryOptions, useQuery } from '@tanstack/react-query';
import { customerPortalLicenseKeysGet } from '@tessera/sdk';
import type { PortalClient } from './portal-client';
import { usePortalSession } from '../session/portal-session';

export function getLicenseKey(client: PortalClient, id: string) {
  return customerPortalLicenseKeysGet(client.core, { id }, client.auth);
}

export function getLicenseKeyQueryOptions(sessionKey: readonly unknown[], client: PortalClient, id: string) {
  return queryOptions({
    queryKey: [...sessionKey, 'license-keys', 'detail', id],
    queryFn: () => getLicenseKey(client, id),
  });
}

/** The key with its activations. */
export function useLicenseKey(id: string) {
  const { queryKey, client } = usePortalSession();
  return useQuery(getLicenseKeyQueryOptions(queryKey, client, id));
}
