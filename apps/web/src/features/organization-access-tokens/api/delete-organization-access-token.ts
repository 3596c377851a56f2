import { useMutation, useQueryClient } from '@tanstack/react-query';
import { organizationAccessTokensDelete } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { ORGANIZATION_ACCESS_TOKENS_QUERY_KEY } from './get-organization-access-tokens';

export function deleteOrganizationAccessToken(id: string) {
  return organizationAccessTokensDelete(client, { id });
}

export function useDeleteOrganizationAccessToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteOrganizationAccessToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ORGANIZATION_ACCESS_TOKENS_QUERY_KEY }),
  });
}
