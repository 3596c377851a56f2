import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { generateToken, TOKEN_PREFIX } from './auth/tokens.js';
import { loggerOptions, redactingDestination, redactLogLine, redactSecrets, redactUrl, REDACTED } from './logging.js';

const cst = generateToken(TOKEN_PREFIX.customerSession);
const clientSecret = generateToken(TOKEN_PREFIX.checkoutClientSecret);
const linkSecret = generateToken(TOKEN_PREFIX.checkoutLinkClientSecret);
const oat = generateToken(TOKEN_PREFIX.organizationAccessToken);
const R = REDACTED;

describe('redactSecrets', () => {
  it.each(Object.entries(TOKEN_PREFIX))('replaces a %s token', (_name, prefix) => {
    const token = generateToken(prefix);
    expect(redactSecrets(`before ${token} after`)).toBe(`before ${R} after`);
  });

  it.each([
    ['Stripe secret key', 'key sk_live_51H8abcDEF123', `key ${R}`],
    ['Stripe restricted key', 'rk_test_51H8abcDEF123', R],
    ['webhook secret', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', R],
    ['PaymentIntent client secret', 'pi_3Abc_secret_XyZ123', R],
    ['simulated card token', 'ctoken_sim_0a1b2c3d4e5f', R],
    ['JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl', R],
    ['bearer header', 'authorization: Bearer abc.def-ghi', `authorization: Bearer ${R}`],
    ['basic header', 'Basic dXNlcjpwYXNz', `Basic ${R}`],
    ['SMTP URL password', 'smtps://mailer:s3cr3t%2Fx@smtp.example.com:465', `smtps://mailer:${R}@smtp.example.com:465`],
    [
      'database URL password',
      'connect postgres://app:pw@db:5432/x failed',
      `connect postgres://app:${R}@db:5432/x failed`,
    ],
    ['URL without a password', 'https://user@example.com/x', 'https://user@example.com/x'],
    ['plain text', 'GET /v1/products/ 200 in 3 ms', 'GET /v1/products/ 200 in 3 ms'],
    ['a uuid', '7b0e3a52-4c55-4b1a-8e0e-1d2f3a4b5c6d', '7b0e3a52-4c55-4b1a-8e0e-1d2f3a4b5c6d'],
  ])('%s', (_name, input, output) => {
    expect(redactSecrets(input)).toBe(output);
  });
});

describe('redactUrl', () => {
  it.each([
    [`/portal/acme?customer_session_token=${cst}`, `/portal/acme?customer_session_token=${R}`],
    [
      `https://billing.example.com/portal/acme?customer_session_token=${cst}&x=1`,
      `https://billing.example.com/portal/acme?customer_session_token=${R}&x=1`,
    ],
    [`/v1/checkouts/client/${clientSecret}`, `/v1/checkouts/client/${R}`],
    [`/v1/checkouts/client/${clientSecret}/confirm`, `/v1/checkouts/client/${R}/confirm`],
    // By position even when it does not look like a token (an old or foreign format).
    ['/v1/checkouts/client/not-a-token/confirm', `/v1/checkouts/client/${R}/confirm`],
    [`/checkout/${clientSecret}/confirmation`, `/checkout/${R}/confirmation`],
    [`/v1/checkout-links/${linkSecret}/redirect?query=1`, `/v1/checkout-links/${R}/redirect?query=1`],
    ['/v1/customer-portal/downloadables/abc.def', `/v1/customer-portal/downloadables/${R}`],
    // Named like a secret, whatever the value.
    ['/cb?code=123456&state=ok', `/cb?code=${R}&state=ok`],
    ['/x?access_token=short&api_key=k&password=p', `/x?access_token=${R}&api_key=${R}&password=${R}`],
    // A token anywhere, also percent-encoded.
    [`/v1/anything?q=${oat}`, `/v1/anything?q=${R}`],
    [`/v1/anything?q=${encodeURIComponent(`a ${oat}`)}`, `/v1/anything?q=${R}`],
    [`/v1/x/${oat}/y`, `/v1/x/${R}/y`],
    [`/v1/x?${cst}`, `/v1/x?${R}`],
    [
      '/v1/products/?organization_id=7b0e3a52&page=2&limit=10',
      '/v1/products/?organization_id=7b0e3a52&page=2&limit=10',
    ],
    ['/v1/customers/external/ext-1', '/v1/customers/external/ext-1'],
    ['/v1/x#access_token=abc', `/v1/x#${R}`],
    ['/v1/x?bad=%zz', '/v1/x?bad=%zz'],
  ])('%s', (input, output) => {
    expect(redactUrl(input)).toBe(output);
  });
});

describe('redactLogLine', () => {
  it('censors JSON fields named like secrets and token-shaped values', () => {
    const line = JSON.stringify({
      msg: `failed for ${cst}`,
      webhook_secret: 'plain words',
      headers: { 'x-api-key': 'abc', cookie: 'a=b' },
      tokenId: 'kept',
    });
    const out = JSON.parse(redactLogLine(line));
    expect(out).toEqual({
      msg: `failed for ${R}`,
      webhook_secret: R,
      headers: { 'x-api-key': R, cookie: R },
      tokenId: 'kept',
    });
  });
});

describe('a logger built with the options and the destination', () => {
  it('writes requests with redacted URLs and no headers, and redacts any line', () => {
    const lines: string[] = [];
    const log = pino(loggerOptions('info', {}), redactingDestination({ write: (line: string) => lines.push(line) }));
    log.info(
      {
        req: {
          method: 'GET',
          url: `/portal/acme?customer_session_token=${cst}`,
          ip: '127.0.0.1',
          headers: { authorization: `Bearer ${oat}`, cookie: 'polar_session=x' },
        },
      },
      'incoming request',
    );
    log.error({ err: new Error(`could not reach /v1/checkouts/client/${clientSecret}`) }, 'failed');
    log.info({ body: { password: 'hunter22', nested: { token: 'abc' } } }, 'body');
    const text = lines.join('');
    for (const secret of [cst, oat, clientSecret, 'hunter22', 'polar_session=x']) expect(text).not.toContain(secret);
    const request = JSON.parse(lines[0]!).req;
    expect(request).toEqual({
      method: 'GET',
      url: `/portal/acme?customer_session_token=${R}`,
      remoteAddress: '127.0.0.1',
    });
  });
});
