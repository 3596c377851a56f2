import { useMutation, useQueryClient } from '@tanstack/react-query';
import { organizationsUpdate, type OrganizationUpdate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { ORGANIZATIONS_QUERY_KEY } from './get-organizations';

export function updateOrganization({ id, body }: { id: string; body: OrganizationUpdate }) {
  return organizationsUpdate(client, { id, body });
}

export function useUpdateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrganization,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ORGANIZATIONS_QUERY_KEY }),
  });
}
