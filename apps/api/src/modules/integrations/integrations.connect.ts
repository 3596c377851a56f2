import { randomUUID } from 'node:crypto';
import type { OAuthConnectPurpose } from '../../db/tables/oauth-accounts.js';
import type { Context } from '../../platform/context.js';
import { NotPermitted } from '../../platform/http/errors.js';
import { authorizationUrl, type OAuthClient } from './integrations.providers.js';
import {
  findOpenConnectState,
  insertConnectState,
  useConnectState,
  type ConnectStateRow,
} from './integrations.repository.js';
import { newAuthorization, seal, stateHash, unseal } from './integrations.secrets.js';

/**
 * An authorization with Discord or GitHub, in three steps:
 *   1. start: a single-use `state` (kept as its keyed hash, 10 minutes) and a PKCE verifier are stored
 *      with who started it (the portal session, or the dashboard user) and the page to come back to;
 *      the browser goes to the provider;
 *   2. the provider sends the browser to GET /v1/integrations/callback, which only sends it on to that
 *      page with the state and the code (the page holds the credentials this callback does not have);
 *   3. the page posts state and code with its own credentials: the state is used once, must belong
 *      to the caller, and the code is exchanged with the verifier. Another session, a second use or
 *      an expired state is refused.
 */
export const CONNECT_TTL_SECONDS = 10 * 60;

/** The one redirect URI to register with the Discord and GitHub apps. */
export const connectCallbackUrl = (ctx: Context) => `${ctx.config.baseUrl}/v1/integrations/callback`;

export const INVALID_STATE = 'Invalid or expired authorization state. Please connect again.';

export interface StartConnect {
  purpose: OAuthConnectPurpose;
  client: OAuthClient;
  organizationId: string;
  customerId?: string;
  customerSessionId?: string;
  userId?: string;
  /** A path of this app (`/portal/…`, `/dashboard/…`) the browser comes back to. */
  returnTo: string;
  extra?: Record<string, string>;
}

export async function startConnect(ctx: Context, input: StartConnect): Promise<string> {
  const { state, codeVerifier, codeChallenge } = newAuthorization();
  const now = ctx.clock.now();
  await insertConnectState(ctx.db, {
    id: randomUUID(),
    created_at: now,
    state_hash: stateHash(ctx.config.secret, state),
    purpose: input.purpose,
    organization_id: input.organizationId,
    customer_id: input.customerId ?? null,
    customer_session_id: input.customerSessionId ?? null,
    user_id: input.userId ?? null,
    code_verifier_sealed: seal(ctx.config.secret, codeVerifier),
    return_to: input.returnTo,
    expires_at: new Date(now.getTime() + CONNECT_TTL_SECONDS * 1000),
  });
  return authorizationUrl(input.client, {
    state,
    redirectUri: connectCallbackUrl(ctx),
    codeChallenge,
    extra: input.extra,
  });
}

/** Step 2: the page to continue on, with what the provider said. Unknown, used or expired state: 403. */
export async function continueConnect(
  ctx: Context,
  query: { state: string; code?: string; error?: string; guild_id?: string },
): Promise<string> {
  const row = await findOpenConnectState(ctx.db, stateHash(ctx.config.secret, query.state), ctx.clock.now());
  if (!row) throw new NotPermitted(INVALID_STATE);
  const url = new URL(row.return_to ?? '/', ctx.config.baseUrl);
  url.searchParams.set('connect_state', query.state);
  if (query.code) url.searchParams.set('code', query.code);
  if (query.error || !query.code) url.searchParams.set('connect_error', query.error ?? 'access_denied');
  return url.toString();
}

/**
 * Step 3: uses the state once, if `belongs` says it is the caller's and for this purpose (otherwise it
 * stays unused for its owner). Returns it with its PKCE verifier.
 */
export async function useState(
  ctx: Context,
  state: string,
  belongs: (row: ConnectStateRow) => boolean,
): Promise<{ row: ConnectStateRow; codeVerifier: string }> {
  const hash = stateHash(ctx.config.secret, state);
  const open = await findOpenConnectState(ctx.db, hash, ctx.clock.now());
  if (!open || !belongs(open)) throw new NotPermitted(INVALID_STATE);
  const row = await useConnectState(ctx.db, hash, ctx.clock.now());
  if (!row) throw new NotPermitted(INVALID_STATE);
  return { row, codeVerifier: unseal(ctx.config.secret, row.code_verifier_sealed) };
}
