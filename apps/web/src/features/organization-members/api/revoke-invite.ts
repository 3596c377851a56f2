import { useMutation, useQueryClient } from '@tanstack/react-query';
import { organizationsRevokeInvite } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { INVITES_QUERY_KEY } from './get-invites';

export function revokeInvite({ organizationId, inviteId }: { organizationId: string; inviteId: string }) {
  return organizationsRevokeInvite(client, { id: organizationId, invite_id: inviteId });
}

export function useRevokeInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeInvite,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: INVITES_QUERY_KEY }),
  });
}
