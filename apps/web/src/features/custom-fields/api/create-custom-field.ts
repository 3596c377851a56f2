import { useMutation, useQueryClient } from '@tanstack/react-query';
import { customFieldsCreate, type CustomFieldCreate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { CUSTOM_FIELDS_QUERY_KEY } from './get-custom-fields';

export function createCustomField(body: CustomFieldCreate) {
  return customFieldsCreate(client, { body });
}

export function useCreateCustomField() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCustomField,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CUSTOM_FIELDS_QUERY_KEY }),
  });
}
