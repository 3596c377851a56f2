import type { OAuthPlatform } from '../../db/tables/oauth-accounts.js';
import type { Context } from '../../platform/context.js';
import type { JobRun } from '../../platform/jobs/queue.js';
import {
  findOAuthAccount,
  updateOAuthAccountTokens,
} from '../customer-portal/oauth-accounts/oauth-accounts.repository.js';
import { oauthClientOf, ProviderError, refreshAccessToken } from '../integrations/integrations.providers.js';
import { seal, unseal } from '../integrations/integrations.secrets.js';
import { BenefitActionRequiredError, BenefitRetriableError, type Fetch } from './benefit-grants.remote.js';

/** Refreshed a minute before it expires, so that it does not expire on the way to Discord. */
const REFRESH_MARGIN_MS = 60_000;

export interface ConnectedAccount {
  accountId: string;
  username: string | null;
  accessToken: string;
}

/**
 * The customer's connected account a grant goes to, with a live access token: an expired Discord token
 * is refreshed with the provider (no transaction open) and the new tokens stored in a short one. A
 * refused refresh asks the customer to reconnect; an unreachable provider is retried.
 */
export async function connectedAccount(
  ctx: Context,
  run: JobRun,
  fetchFn: Fetch,
  input: { customerId: string; platform: OAuthPlatform; accountId: string | undefined },
): Promise<ConnectedAccount | undefined> {
  if (!input.accountId) return undefined;
  const row = await findOAuthAccount(ctx.db, input.customerId, input.platform, input.accountId);
  if (!row) return undefined;
  const secret = ctx.config.secret;
  const account = { accountId: row.account_id, username: row.account_username };
  const now = ctx.clock.now();
  const fresh = !row.expires_at || row.expires_at.getTime() - REFRESH_MARGIN_MS > now.getTime();
  if (fresh) return { ...account, accessToken: unseal(secret, row.access_token_sealed) };
  const client = oauthClientOf(ctx.config, input.platform);
  const label = input.platform === 'discord' ? 'Discord' : 'GitHub';
  if (!client || !row.refresh_token_sealed)
    throw new BenefitActionRequiredError(`The customer needs to reconnect their ${label} account`);
  let tokens: Awaited<ReturnType<typeof refreshAccessToken>>;
  try {
    tokens = await refreshAccessToken(fetchFn, client, unseal(secret, row.refresh_token_sealed), now);
  } catch (error) {
    if (error instanceof ProviderError && error.kind === 'unavailable') throw new BenefitRetriableError(error.message);
    throw new BenefitActionRequiredError(`The customer needs to reconnect their ${label} account`);
  }
  await run.transaction((tx) =>
    updateOAuthAccountTokens(tx.db, row.id, {
      modified_at: tx.clock.now(),
      access_token_sealed: seal(secret, tokens.accessToken),
      refresh_token_sealed: tokens.refreshToken ? seal(secret, tokens.refreshToken) : row.refresh_token_sealed,
      expires_at: tokens.expiresAt,
    }),
  );
  return { ...account, accessToken: tokens.accessToken };
}
