import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authLogout } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { USER_QUERY_KEY } from './get-user';

export function signOut() {
  return authLogout(client);
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    onSuccess: () => {
      // Nothing of the previous session may stay on screen for the next person.
      queryClient.clear();
      queryClient.setQueryData(USER_QUERY_KEY, null);
    },
  });
}
