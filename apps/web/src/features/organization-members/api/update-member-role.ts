import { useMutation, useQueryClient } from '@tanstack/react-query';
import { organizationsUpdateMember, type OrganizationMemberRole } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { MEMBERS_QUERY_KEY } from './get-members';

export function updateMemberRole({
  organizationId,
  userId,
  role,
}: {
  organizationId: string;
  userId: string;
  role: OrganizationMemberRole;
}) {
  return organizationsUpdateMember(client, { id: organizationId, user_id: userId, body: { role } });
}

export function useUpdateMemberRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMemberRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: MEMBERS_QUERY_KEY }),
  });
}
