import { useMutation, useQueryClient } from '@tanstack/react-query';
import { customFieldsDelete } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { CUSTOM_FIELDS_QUERY_KEY } from './get-custom-fields';

export function deleteCustomField(id: string) {
  return customFieldsDelete(client, { id });
}

export function useDeleteCustomField() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCustomField,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CUSTOM_FIELDS_QUERY_KEY }),
  });
}
