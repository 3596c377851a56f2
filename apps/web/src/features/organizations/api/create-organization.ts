import { useMutation, useQueryClient } from '@tanstack/react-query';
import { organizationsCreate, type OrganizationCreate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { ORGANIZATIONS_QUERY_KEY } from './get-organizations';

export function createOrganization(body: OrganizationCreate) {
  return organizationsCreate(client, { body });
}

export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ORGANIZATIONS_QUERY_KEY }),
  });
}
