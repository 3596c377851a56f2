import { useMutation, useQueryClient } from '@tanstack/react-query';
import { customerPortalBenefitGrantsUpdate } from '@tessera/sdk';
import { usePortalSession } from '../session/portal-session';
import type { PortalClient } from './portal-client';

type AccountGrantType = 'discord' | 'github_repository';

export function chooseGrantAccount(client: PortalClient, id: string, type: AccountGrantType, accountId: string) {
  return customerPortalBenefitGrantsUpdate(
    client.core,
    { id, body: { benefit_type: type, properties: { account_id: accountId } } },
    client.auth,
  );
}

/** The customer chooses the account a Discord or GitHub grant goes to; the grant is then delivered. */
export function useChooseGrantAccount() {
  const { client, queryKey } = usePortalSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; type: AccountGrantType; accountId: string }) =>
      chooseGrantAccount(client, input.id, input.type, input.accountId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey }),
  });
}
