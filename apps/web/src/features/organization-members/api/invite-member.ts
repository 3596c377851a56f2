import { useMutation, useQueryClient } from '@tanstack/react-query';
import { organizationsInviteMember } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { INVITES_QUERY_KEY } from './get-invites';

export function inviteMember({ organizationId, email }: { organizationId: string; email: string }) {
  return organizationsInviteMember(client, { id: organizationId, body: { email } });
}

export function useInviteMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteMember,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: INVITES_QUERY_KEY }),
  });
}
