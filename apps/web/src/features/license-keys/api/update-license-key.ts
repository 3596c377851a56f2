import { useMutation, useQueryClient } from '@tanstack/react-query';
import { licenseKeysUpdate, type LicenseKeyUpdate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { LICENSE_KEYS_QUERY_KEY } from './get-license-keys';

/** Changes status, usage, limits or expiry; keys left out of `body` stay as they are. */
export function updateLicenseKey({ id, body }: { id: string; body: LicenseKeyUpdate }) {
  return licenseKeysUpdate(client, { id, body });
}

export function useUpdateLicenseKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLicenseKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LICENSE_KEYS_QUERY_KEY }),
  });
}
