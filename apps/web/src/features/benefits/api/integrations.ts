import { useMutation, useQuery } from '@tanstack/react-query';

/**
 * The Discord and GitHub lookups of the benefit form (the dashboard's own calls, not in the public API;
 * the session cookie authenticates them as the SDK's calls).
 */
async function dashboardFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(new URL(path, window.location.origin), {
    ...init,
    credentials: 'include',
    headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });
  const body = (await response.json().catch(() => null)) as { detail?: unknown } | null;
  if (!response.ok) {
    const detail = Array.isArray(body?.detail) ? (body.detail[0] as { msg?: string })?.msg : body?.detail;
    throw new Error(typeof detail === 'string' ? detail : `The request failed (${response.status}).`);
  }
  return body as T;
}

export interface DiscordRole {
  id: string;
  name: string;
  position: number;
  color: number;
  is_bot: boolean;
  /** Whether the bot can give it (below the bot's highest role, not managed); only these can be saved. */
  manageable: boolean;
}

export interface DiscordGuild {
  id: string;
  name: string;
  roles: DiscordRole[];
}

export interface GitHubRepository {
  repository_owner: string;
  repository_name: string;
  private: boolean;
}

/** Sends the browser to Discord to add the server's bot to a Discord server; it comes back to the benefits page. */
export function useStartDiscordBot() {
  return useMutation({
    mutationFn: async (organizationId: string) => {
      const { url } = await dashboardFetch<{ url: string }>(
        `/v1/integrations/discord/bot/authorize?organization_id=${encodeURIComponent(organizationId)}`,
      );
      window.location.assign(url);
    },
  });
}

export function useFinishDiscordBot() {
  return useMutation({
    mutationFn: (body: { state: string; code: string }) =>
      dashboardFetch<{ guild_id: string; guild_name: string; guild_token: string }>(
        '/v1/integrations/discord/bot/callback',
        { method: 'POST', body: JSON.stringify(body) },
      ),
  });
}

export function useDiscordGuild(guildToken: string) {
  return useQuery({
    queryKey: ['integrations', 'discord', 'guild', guildToken],
    queryFn: () =>
      dashboardFetch<DiscordGuild>(
        `/v1/integrations/discord/guild/lookup?guild_token=${encodeURIComponent(guildToken)}`,
      ),
    enabled: guildToken !== '',
    retry: false,
  });
}

export function useGitHubRepositories() {
  return useQuery({
    queryKey: ['integrations', 'github', 'repositories'],
    queryFn: () => dashboardFetch<{ items: GitHubRepository[] }>('/v1/integrations/github/repositories'),
    retry: false,
  });
}
