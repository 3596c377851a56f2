import { useMutation, useQueryClient } from '@tanstack/react-query';
import { organizationAccessTokensCreate, type OrganizationAccessTokenCreate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { ORGANIZATION_ACCESS_TOKENS_QUERY_KEY } from './get-organization-access-tokens';

export function createOrganizationAccessToken(body: OrganizationAccessTokenCreate) {
  return organizationAccessTokensCreate(client, { body });
}

export function useCreateOrganizationAccessToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganizationAccessToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ORGANIZATION_ACCESS_TOKENS_QUERY_KEY }),
  });
}
