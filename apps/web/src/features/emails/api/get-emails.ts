import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { emailsList, type ListResourceOutboxEmail } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

/** The worker sends emails after the page loaded, so the outbox refreshes itself while shown. */
const REFRESH_MS = 3_000;

export function emailsQueryKey(organizationId: string, page: number) {
  return ['emails', organizationId, page] as const;
}

/** The organization's outbox; null where there is none (production servers do not have the route). */
export async function getEmails(organizationId: string, page: number): Promise<ListResourceOutboxEmail | null> {
  try {
    return (await emailsList(client, { organization_id: organizationId, page, limit: 10 })).result;
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return null;
    throw error;
  }
}

export function getEmailsQueryOptions(organizationId: string, page: number) {
  return queryOptions({
    queryKey: emailsQueryKey(organizationId, page),
    queryFn: () => getEmails(organizationId, page),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
}

export function useEmails(organizationId: string, page: number) {
  return useQuery(getEmailsQueryOptions(organizationId, page));
}
