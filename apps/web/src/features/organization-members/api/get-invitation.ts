import { queryOptions, useQuery } from '@tanstack/react-query';
import { organizationInvitesGet } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

/** The invitation a link carries (public: the link is the credential). */
export function getInvitation(token: string) {
  return organizationInvitesGet(client, { token });
}

export function getInvitationQueryOptions(token: string) {
  return queryOptions({ queryKey: ['organization-invitation', token], queryFn: () => getInvitation(token) });
}

export function useInvitation(token: string) {
  return useQuery(getInvitationQueryOptions(token));
}
