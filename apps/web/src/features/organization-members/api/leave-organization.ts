import { useMutation, useQueryClient } from '@tanstack/react-query';
import { organizationsLeave } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export function leaveOrganization(organizationId: string) {
  return organizationsLeave(client, { id: organizationId });
}

/** After leaving, every cached page of that organization is stale: drop them all. */
export function useLeaveOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: leaveOrganization,
    onSuccess: () => queryClient.resetQueries(),
  });
}
