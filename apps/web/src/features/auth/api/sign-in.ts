import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authLogin, type SignIn } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { USER_QUERY_KEY } from './get-user';

export function signIn(body: SignIn) {
  return authLogin(client, { body });
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: (user) => {
      queryClient.clear();
      queryClient.setQueryData(USER_QUERY_KEY, user);
    },
  });
}
