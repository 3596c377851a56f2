import { useMutation, useQueryClient } from '@tanstack/react-query';
import { customFieldsUpdate, type CustomFieldUpdate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { CUSTOM_FIELDS_QUERY_KEY } from './get-custom-fields';

/** Renames a field or replaces its properties; the type never changes. */
export function updateCustomField({ id, body }: { id: string; body: CustomFieldUpdate }) {
  return customFieldsUpdate(client, { id, body });
}

export function useUpdateCustomField() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCustomField,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CUSTOM_FIELDS_QUERY_KEY }),
  });
}
