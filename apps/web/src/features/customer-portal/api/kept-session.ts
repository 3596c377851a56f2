import { client } from '../../../lib/api-client';

/**
 * The portal session kept across tabs (the API's customer-session keeper): the token is kept in an
 * HttpOnly cookie that only these three calls send, so a new tab of the portal can restore it. Every
 * other portal call still carries the token in `Authorization`; the cookie authenticates nothing.
 * Failures are quiet: the portal then works as before, with the tab's own token.
 */
async function post(path: string, body: object): Promise<Response | null> {
  try {
    return await fetch(new URL(`/v1/customer-portal/customer-session/${path}`, client.options.serverURL), {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    return null;
  }
}

/** Keeps the session of this token for new tabs of the portal. */
export async function keepSession(token: string): Promise<void> {
  await post('keep', { token });
}

/** The token kept for the organization's portal, or null (none kept, or its session ended). */
export async function restoreSession(organizationId: string): Promise<string | null> {
  const response = await post('restore', { organization_id: organizationId });
  if (!response?.ok) return null;
  const body = (await response.json().catch(() => null)) as { token?: unknown } | null;
  return typeof body?.token === 'string' && body.token ? body.token : null;
}

/** Forgets the kept session (sign-out, or a token the API refused). */
export async function forgetKeptSession(organizationId: string): Promise<void> {
  await post('forget', { organization_id: organizationId });
}
