import { useMutation, useQueryClient } from '@tanstack/react-query';
import { organizationsRemoveMember } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { MEMBERS_QUERY_KEY } from './get-members';

export function removeMember({ organizationId, userId }: { organizationId: string; userId: string }) {
  return organizationsRemoveMember(client, { id: organizationId, user_id: userId });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: MEMBERS_QUERY_KEY }),
  });
}
