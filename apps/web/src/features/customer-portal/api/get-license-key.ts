import { queryOptions, useQuery } from '@tanstack/react-query';
import { customerPortalLicenseKeysGet, type TesseraCore } from '@tessera/sdk';
import { usePortalSession } from '../session/portal-session';

export function getLicenseKey(client: TesseraCore, id: string) {
  return customerPortalLicenseKeysGet(client, { id });
}

export function getLicenseKeyQueryOptions(sessionKey: readonly unknown[], client: TesseraCore, id: string) {
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
