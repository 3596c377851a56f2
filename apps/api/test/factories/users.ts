import { randomBytes } from 'node:crypto';
import type { TestServer } from '../harness.js';

export interface UserFixture {
  id: string;
  email: string;
  password: string;
  /** `cookie` header value carrying the session. */
  cookie: string;
  /** Headers a browser on our own origin sends with a cookie-authenticated write. */
  headers: Record<string, string>;
}

export const OWN_ORIGIN = 'http://127.0.0.1';

/** Signs up through the API, as the dashboard does, and returns the session cookie. */
export async function userFactory(
  server: TestServer,
  overrides: { email?: string; password?: string } = {},
): Promise<UserFixture> {
  const email = overrides.email ?? `user-${randomBytes(4).toString('hex')}@example.com`;
  const password = overrides.password ?? 'correct horse battery staple';
  const response = await server.inject({
    method: 'POST',
    url: '/v1/auth/signup',
    headers: { origin: OWN_ORIGIN },
    payload: { email, password },
  });
  if (response.statusCode !== 201) throw new Error(`signup failed: ${response.statusCode} ${response.body}`);
  const session = response.cookies.find((c) => c.name === 'tessera_session');
  if (!session) throw new Error('signup set no session cookie');
  const cookie = `tessera_session=${session.value}`;
  return { id: JSON.parse(response.body).id, email, password, cookie, headers: { cookie, origin: OWN_ORIGIN } };
}
