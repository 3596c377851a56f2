import { useMutation } from '@tanstack/react-query';
import { organizationInvitesAccept } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

/** Joins the organization as the signed-in user; answers the organization. */
export function acceptInvitation(token: string) {
  return organizationInvitesAccept(client, { token });
}

export function useAcceptInvitation() {
  return useMutation({ mutationFn: acceptInvitation });
}
