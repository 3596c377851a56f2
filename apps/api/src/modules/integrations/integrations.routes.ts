import { z } from 'zod/v4';
import { PUBLIC } from '../../platform/auth/subject.js';
import { read, write } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { continueConnect } from './integrations.connect.js';
import {
  ConnectCallbackQuery,
  DiscordBotAuthorizeQuery,
  DiscordBotAuthorizeResponse,
  DiscordBotCallback,
  DiscordGuild,
  DiscordGuildLookupQuery,
  DiscordGuildToken,
  GitHubRepositoryList,
} from './integrations.schemas.js';
import {
  authorizeDiscordBot,
  completeDiscordBot,
  listGitHubRepositories,
  lookupDiscordGuild,
} from './integrations.service.js';

const tags = ['integrations'];

/** Discord and GitHub connections (the dashboard's and the portal's own calls: not in the public document). */
export const integrationRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/integrations/callback',
    operationId: 'integrations:callback',
    summary: 'Where Discord and GitHub send the browser back: on to the page that started the connection',
    tags,
    auth: PUBLIC,
    internal: true,
    extension: true,
    query: ConnectCallbackQuery,
    errors: ['NotPermitted'],
    status: 200,
    response: z.undefined(),
    handler: async (ctx, { query }, reply) => {
      reply.redirect(await continueConnect(ctx, query), 303);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/integrations/discord/bot/authorize',
    operationId: 'integrations:discord:bot_authorize',
    summary: "Start adding the server's Discord bot to a Discord server",
    tags,
    auth: { subjects: ['user'], scopes: write('benefits') },
    internal: true,
    extension: true,
    transaction: true,
    query: DiscordBotAuthorizeQuery,
    errors: ['BadRequest', 'ResourceNotFound'],
    status: 200,
    response: DiscordBotAuthorizeResponse,
    handler: (ctx, { query }) => authorizeDiscordBot(ctx, query.organization_id),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/integrations/discord/bot/callback',
    operationId: 'integrations:discord:bot_callback',
    summary: 'Finish adding the bot: the guild token a Discord benefit takes',
    tags,
    auth: { subjects: ['user'], scopes: write('benefits') },
    internal: true,
    extension: true,
    transaction: false,
    body: DiscordBotCallback,
    errors: ['BadRequest', 'NotPermitted'],
    status: 200,
    response: DiscordGuildToken,
    handler: (ctx, { body }) => completeDiscordBot(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/integrations/discord/guild/lookup',
    operationId: 'integrations:discord:guild_lookup',
    summary: 'The Discord server of a guild token, with the roles a benefit may give',
    tags,
    auth: { subjects: ['user', 'organization'], scopes: read('benefits') },
    internal: true,
    extension: true,
    query: DiscordGuildLookupQuery,
    errors: ['BadRequest'],
    status: 200,
    response: DiscordGuild,
    handler: (ctx, { query }) => lookupDiscordGuild(ctx, query.guild_token),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/integrations/github/repositories',
    operationId: 'integrations:github:repositories',
    summary: "The repositories the server's GitHub token reaches (for a GitHub repository benefit)",
    tags,
    auth: { subjects: ['user', 'organization'], scopes: read('benefits') },
    internal: true,
    extension: true,
    errors: ['BadRequest'],
    status: 200,
    response: GitHubRepositoryList,
    handler: (ctx) => listGitHubRepositories(ctx),
  }),
];
