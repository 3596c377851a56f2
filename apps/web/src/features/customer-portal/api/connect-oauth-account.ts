import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccountPlatform } from '../logic/benefit-grants';
import { usePortalSession } from '../session/portal-session';
import type { PortalClient } from './portal-client';

/**
 * Connecting a Discord or GitHub account (the portal's own calls, not in the public API): start sends
 * the browser to the provider, which comes back to the benefits page with `connect_state` and `code`;
 * finish hands them over with this session's token (the state is this session's, used once).
 */
async function portalFetch(client: PortalClient, path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(new URL(path, window.location.origin), {
    ...init,
    credentials: 'omit',
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${client.auth.customerSession}`,
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { detail?: unknown } | null;
    throw new Error(typeof body?.detail === 'string' ? body.detail : `The request failed (${response.status}).`);
  }
  return response;
}

export async function startOAuthConnect(client: PortalClient, platform: AccountPlatform, returnTo: string) {
  const query = new URLSearchParams({ platform, return_to: returnTo });
  const response = await portalFetch(client, `/v1/customer-portal/oauth-accounts/authorize?${query}`);
  return ((await response.json()) as { url: string }).url;
}

export interface ConnectedAccountAnswer {
  platform: AccountPlatform;
  account_id: string;
  account_username: string | null;
}

export async function finishOAuthConnect(client: PortalClient, body: { state: string; code: string }) {
  const response = await portalFetch(client, '/v1/customer-portal/oauth-accounts/callback', {
    method: 'POST',
    body: JSON.stringify(body),
  });
  return (await response.json()) as ConnectedAccountAnswer;
}

export async function disconnectOAuthAccount(client: PortalClient, platform: AccountPlatform, accountId: string) {
  await portalFetch(client, `/v1/customer-portal/oauth-accounts/${platform}/${encodeURIComponent(accountId)}`, {
    method: 'DELETE',
  });
}

export function useStartOAuthConnect() {
  const { client } = usePortalSession();
  return useMutation({
    mutationFn: async ({ platform, returnTo }: { platform: AccountPlatform; returnTo: string }) => {
      window.location.assign(await startOAuthConnect(client, platform, returnTo));
    },
  });
}

/** Finishing changes the customer (its accounts), which every grant embeds: all is read again. */
export function useFinishOAuthConnect() {
  const { client, queryKey } = usePortalSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { state: string; code: string }) => finishOAuthConnect(client, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey }),
  });
}

export function useDisconnectOAuthAccount() {
  const { client, queryKey } = usePortalSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ platform, accountId }: { platform: AccountPlatform; accountId: string }) =>
      disconnectOAuthAccount(client, platform, accountId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey }),
  });
}
