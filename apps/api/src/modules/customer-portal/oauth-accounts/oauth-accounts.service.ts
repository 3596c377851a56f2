import { randomUUID } from 'node:crypto';
import type { z } from 'zod/v4';
import type { OAuthPlatform } from '../../../db/tables/oauth-accounts.js';
import type { Context } from '../../../platform/context.js';
import { BadRequest, ResourceAlreadyExists, ResourceNotFound } from '../../../platform/http/errors.js';
import { runIn } from '../../../platform/jobs/queue.js';
import type { CustomerRow } from '../../customers/customers.repository.js';
import { findOrganizationsByIds } from '../../checkouts/checkouts.repository.js';
import { startConnect, useState } from '../../integrations/integrations.connect.js';
import { connectCallbackUrl } from '../../integrations/integrations.connect.js';
import {
  exchangeCode,
  fetchProfile,
  oauthClientOf,
  ProviderError,
  type OAuthClient,
} from '../../integrations/integrations.providers.js';
import { seal } from '../../integrations/integrations.secrets.js';
import {
  deleteOAuthAccount,
  findOAuthAccountsOfCustomers,
  lockOrganizationOAuthAccount,
  upsertOAuthAccount,
  type CustomerOAuthAccountRow,
} from './oauth-accounts.repository.js';
import type {
  CustomerOAuthAccountConnected,
  OAuthAccountAuthorizeQuery,
  OAuthAccountCallback,
} from './oauth-accounts.schemas.js';

/**
 * A customer connects a Discord or GitHub account in the portal (integrations.connect.ts has the
 * flow). The account is the customer's alone within the organization; its tokens are sealed.
 */

function sessionOf(ctx: Context) {
  if (ctx.subject.kind !== 'customer') throw new ResourceNotFound();
  return ctx.subject;
}

function clientOf(ctx: Context, platform: OAuthPlatform): OAuthClient {
  const client = oauthClientOf(ctx.config, platform);
  if (!client)
    throw new BadRequest(
      `${platform === 'discord' ? 'Discord' : 'GitHub'} accounts cannot be connected: the server has no OAuth app for it.`,
    );
  return client;
}

export async function authorizeOAuthAccount(
  ctx: Context,
  query: z.output<typeof OAuthAccountAuthorizeQuery>,
): Promise<{ url: string }> {
  const session = sessionOf(ctx);
  if (query.customer_id && query.customer_id !== session.customerId) throw new ResourceNotFound();
  const client = clientOf(ctx, query.platform);
  const [organization] = await findOrganizationsByIds(ctx.db, [session.organizationId]);
  const portal = `/portal/${organization!.slug}`;
  // Back to this organization's portal only, whatever path was asked for.
  const returnTo = query.return_to?.startsWith(`${portal}/`) ? query.return_to : `${portal}/benefits`;
  const url = await startConnect(ctx, {
    purpose: query.platform === 'discord' ? 'customer_discord' : 'customer_github',
    client,
    organizationId: session.organizationId,
    customerId: session.customerId,
    customerSessionId: session.sessionId,
    returnTo,
  });
  return { url };
}

/**
 * Completes a connection: the state is used once (it must be this session's), the code exchanged and
 * the account read from the provider with no transaction open, then the account stored. An account
 * another customer of the organization holds is a 409.
 */
export async function completeOAuthAccount(
  ctx: Context,
  body: z.output<typeof OAuthAccountCallback>,
): Promise<z.input<typeof CustomerOAuthAccountConnected>> {
  const session = sessionOf(ctx);
  const run = ctx.transactions ?? runIn(ctx);
  const { row, codeVerifier } = await run.transaction((tx) =>
    useState(
      tx,
      body.state,
      (state) =>
        state.customer_session_id === session.sessionId &&
        state.customer_id === session.customerId &&
        (state.purpose === 'customer_discord' || state.purpose === 'customer_github'),
    ),
  );
  const platform: OAuthPlatform = row.purpose === 'customer_discord' ? 'discord' : 'github';
  const client = clientOf(ctx, platform);
  let profile: Awaited<ReturnType<typeof fetchProfile>>;
  let tokens: Awaited<ReturnType<typeof exchangeCode>>;
  try {
    tokens = await exchangeCode(
      fetch,
      client,
      { code: body.code, redirectUri: connectCallbackUrl(ctx), codeVerifier },
      ctx.clock.now(),
    );
    profile = await fetchProfile(fetch, ctx.config, platform, tokens.accessToken);
  } catch (error) {
    if (error instanceof ProviderError) throw new BadRequest(error.message);
    throw error;
  }
  return run.transaction(async (tx) => {
    const held = await lockOrganizationOAuthAccount(tx.db, session.organizationId, platform, profile.accountId);
    if (held && held.customer_id !== session.customerId)
      throw new ResourceAlreadyExists(`This ${client.label} account is already connected to another customer.`);
    const now = tx.clock.now();
    const account = await upsertOAuthAccount(tx.db, {
      id: randomUUID(),
      created_at: now,
      modified_at: null,
      organization_id: session.organizationId,
      customer_id: session.customerId,
      platform,
      account_id: profile.accountId,
      account_username: profile.username,
      access_token_sealed: seal(tx.config.secret, tokens.accessToken),
      refresh_token_sealed: tokens.refreshToken ? seal(tx.config.secret, tokens.refreshToken) : null,
      expires_at: tokens.expiresAt,
    });
    if (!account)
      throw new ResourceAlreadyExists(`This ${client.label} account is already connected to another customer.`);
    return { platform, account_id: account.account_id, account_username: account.account_username };
  });
}

/** Forgets a connected account. Grants already delivered to it stay until they are revoked or moved. */
export async function disconnectOAuthAccount(
  ctx: Context,
  params: { platform: OAuthPlatform; account_id: string },
): Promise<void> {
  const session = sessionOf(ctx);
  if (!(await deleteOAuthAccount(ctx.db, session.customerId, params.platform, params.account_id)))
    throw new ResourceNotFound();
}

/** Connected accounts of customers, by customer (for the portal's `oauth_accounts`). */
export async function oauthAccountsByCustomer(
  ctx: Context,
  customers: readonly Pick<CustomerRow, 'id'>[],
): Promise<Map<string, CustomerOAuthAccountRow[]>> {
  const rows = await findOAuthAccountsOfCustomers(
    ctx.db,
    customers.map((customer) => customer.id),
  );
  const byCustomer = new Map<string, CustomerOAuthAccountRow[]>();
  for (const row of rows) byCustomer.set(row.customer_id, [...(byCustomer.get(row.customer_id) ?? []), row]);
  return byCustomer;
}
