import type { z } from 'zod/v4';
import type { Context } from '../../platform/context.js';
import { BadRequest, ResourceNotFound, validationError } from '../../platform/http/errors.js';
import { runIn } from '../../platform/jobs/queue.js';
import { signGuildToken, verifyGuildToken } from '../benefits/benefits.properties.js';
import { findVisibleOrganization } from '../organizations/organizations.repository.js';
import { connectCallbackUrl, startConnect, useState } from './integrations.connect.js';
import {
  DISCORD_BOT_PERMISSIONS,
  discordGuild,
  exchangeCode,
  githubRepositories,
  oauthClientOf,
  ProviderError,
} from './integrations.providers.js';
import type {
  DiscordBotCallback,
  DiscordGuild,
  DiscordGuildToken,
  GitHubRepositoryList,
} from './integrations.schemas.js';

/**
 * The seller's side of the Discord and GitHub benefits: adding the server's Discord bot to a guild (an
 * OAuth2 bot authorization; the guild comes back as a guild token the benefit form sends), the guild's
 * roles, and the repositories the server's GitHub token reaches.
 */

function providerFailure(error: unknown): never {
  if (error instanceof ProviderError) throw new BadRequest(error.message);
  throw error;
}

function discordClient(ctx: Context) {
  const client = oauthClientOf(ctx.config, 'discord');
  if (!client || !ctx.config.discordBotToken)
    throw new BadRequest(
      'Discord is not configured on this server: set DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET and DISCORD_BOT_TOKEN.',
    );
  return client;
}

export async function authorizeDiscordBot(ctx: Context, organizationId: string): Promise<{ url: string }> {
  if (ctx.subject.kind !== 'user') throw new ResourceNotFound();
  const organization = await findVisibleOrganization(ctx.db, ctx.subject, organizationId);
  if (!organization) throw new ResourceNotFound('Organization not found');
  const client = discordClient(ctx);
  const url = await startConnect(ctx, {
    purpose: 'discord_bot',
    client,
    organizationId: organization.id,
    userId: ctx.subject.userId,
    returnTo: `/dashboard/${organization.slug}/benefits`,
    extra: { scope: 'bot', permissions: DISCORD_BOT_PERMISSIONS },
  });
  return { url };
}

/** The bot joined a guild: the code is exchanged (Discord names the guild in its answer) for a guild token. */
export async function completeDiscordBot(
  ctx: Context,
  body: z.output<typeof DiscordBotCallback>,
): Promise<z.input<typeof DiscordGuildToken>> {
  const subject = ctx.subject;
  if (subject.kind !== 'user') throw new ResourceNotFound();
  const run = ctx.transactions ?? runIn(ctx);
  const { codeVerifier } = await run.transaction((tx) =>
    useState(tx, body.state, (state) => state.purpose === 'discord_bot' && state.user_id === subject.userId),
  );
  const client = discordClient(ctx);
  const tokens = await exchangeCode(
    fetch,
    client,
    { code: body.code, redirectUri: connectCallbackUrl(ctx), codeVerifier },
    ctx.clock.now(),
  ).catch(providerFailure);
  if (!tokens.guild) throw new BadRequest('Discord did not add the bot to a server. Please connect again.');
  return {
    guild_id: tokens.guild.id,
    guild_name: tokens.guild.name,
    guild_token: signGuildToken(ctx.config.secret, tokens.guild.id, ctx.clock.now()),
  };
}

export async function lookupDiscordGuild(ctx: Context, guildToken: string): Promise<z.input<typeof DiscordGuild>> {
  const guildId = verifyGuildToken(ctx.config.secret, guildToken, ctx.clock.now());
  if (!guildId)
    throw validationError(['query', 'guild_token'], 'Invalid token. Please authenticate your Discord server again.');
  return discordGuild(fetch, ctx.config, guildId).catch(providerFailure);
}

export async function listGitHubRepositories(ctx: Context): Promise<z.input<typeof GitHubRepositoryList>> {
  return { items: await githubRepositories(fetch, ctx.config).catch(providerFailure) };
}
