import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authSignup, type SignUp } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { USER_QUERY_KEY } from './get-user';

export function signUp(body: SignUp) {
  return authSignup(client, { body });
}

export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signUp,
    onSuccess: (user) => {
      queryClient.clear();
      queryClient.setQueryData(USER_QUERY_KEY, user);
    },
  });
}
