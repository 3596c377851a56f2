import { z } from 'zod/v4';

/** What Discord and GitHub send the browser back with (anything else they add is ignored). */
export const ConnectCallbackQuery = z.object({
  state: z.string().min(1).max(200),
  code: z.string().max(2000).optional(),
  error: z.string().max(200).optional(),
  guild_id: z.string().max(64).optional(),
});

export const DiscordBotAuthorizeQuery = z.object({ organization_id: z.uuid() });

export const DiscordBotAuthorizeResponse = z.object({ url: z.string() }).meta({ id: 'DiscordBotAuthorizeResponse' });

export const DiscordBotCallback = z
  .strictObject({ state: z.string().min(1).max(200), code: z.string().min(1).max(2000) })
  .meta({ id: 'DiscordBotCallback' });

export const DiscordGuildToken = z
  .object({
    guild_id: z.string(),
    guild_name: z.string(),
    guild_token: z.string().meta({ description: 'What a Discord benefit takes in `properties.guild_token`.' }),
  })
  .meta({ id: 'DiscordGuildToken' });

export const DiscordGuildLookupQuery = z.object({ guild_token: z.string().min(1).max(2000) });

export const DiscordGuildRole = z
  .object({
    id: z.string(),
    name: z.string(),
    position: z.int(),
    color: z.int(),
    is_bot: z.boolean().meta({ description: "The bot's own role: a benefit's role must be below it." }),
    manageable: z.boolean().meta({
      description:
        "Whether the bot can give the role: below the bot's highest role and not managed by an integration. " +
        'A benefit accepts only such a role.',
    }),
  })
  .meta({ id: 'DiscordGuildRole' });

export const DiscordGuild = z
  .object({ id: z.string(), name: z.string(), roles: z.array(DiscordGuildRole) })
  .meta({ id: 'DiscordGuild' });

export const GitHubRepository = z
  .object({ repository_owner: z.string(), repository_name: z.string(), private: z.boolean() })
  .meta({ id: 'GitHubRepository' });

export const GitHubRepositoryList = z.object({ items: z.array(GitHubRepository) }).meta({ id: 'GitHubRepositoryList' });
