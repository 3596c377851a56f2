import { describe, expect, it } from 'vitest';
import { isAllowedRedirectUri, isHttpUrl, parseScopes, plainChallengeAsS256 } from './oauth2.rules.js';

describe('isAllowedRedirectUri', () => {
  it.each([
    ['https://app.example.com/callback', true],
    ['https://app.example.com/callback?x=1', true],
    ['http://localhost:3000/callback', true],
    ['http://app.localhost/callback', true],
    ['http://localhost8080/cb', true],
    ['http://127.0.0.1:5000/cb', true],
    ['http://192.168.1.4/cb', true],
    ['http://10.0.0.2/cb', true],
    ['http://172.16.0.1/cb', true],
    ['http://172.32.0.1/cb', false],
    ['http://app.example.com/callback', false],
    ['https://app.example.com/callback#frag', false],
    ['javascript:alert(1)', false],
    ['ftp://localhost/cb', false],
    ['not a url', false],
  ])('%s → %s', (uri, allowed) => {
    expect(isAllowedRedirectUri(uri)).toBe(allowed);
  });
});

describe('isHttpUrl', () => {
  it.each([
    ['https://example.com/logo.png', true],
    ['http://example.com', true],
    ['data:image/png;base64,AAAA', false],
    ['example.com', false],
  ])('%s → %s', (url, ok) => {
    expect(isHttpUrl(url)).toBe(ok);
  });
});

describe('parseScopes', () => {
  it('splits, dedupes and keeps order', () => {
    expect(parseScopes('openid  products:read openid')).toEqual({ scopes: ['openid', 'products:read'] });
  });
  it('names the first unknown scope', () => {
    expect(parseScopes('openid nope products:read')).toEqual({ unknown: 'nope' });
  });
  it('refuses reserved scopes', () => {
    expect(parseScopes('web_default')).toEqual({ unknown: 'web_default' });
    expect(parseScopes('admin')).toEqual({ unknown: 'admin' });
  });
});

describe('plainChallengeAsS256', () => {
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const s256 = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'; // RFC 7636 appendix B
  it.each([
    [
      'a plain challenge becomes its S256',
      { code_challenge: verifier, code_challenge_method: 'plain' },
      true,
      s256,
      'S256',
    ],
    ['S256 is left alone', { code_challenge: s256, code_challenge_method: 'S256' }, false, s256, 'S256'],
    ['no PKCE is left alone', {}, false, null, null],
    [
      'a plain challenge too short keeps its value',
      { code_challenge: 'short', code_challenge_method: 'plain' },
      true,
      'short',
      'S256',
    ],
    [
      'a plain challenge with a bad character keeps its value',
      { code_challenge: `${verifier}!`, code_challenge_method: 'plain' },
      true,
      `${verifier}!`,
      'S256',
    ],
  ])('%s', (_name, values, changed, challenge, method) => {
    const params = new URLSearchParams(values);
    expect(plainChallengeAsS256(params)).toBe(changed);
    expect(params.get('code_challenge')).toBe(challenge);
    expect(params.get('code_challenge_method')).toBe(method);
  });

  it('leaves parameters sent twice for the library to refuse', () => {
    const params = new URLSearchParams(
      `code_challenge=${verifier}&code_challenge=${verifier}&code_challenge_method=plain`,
    );
    expect(plainChallengeAsS256(params)).toBe(false);
    expect(params.getAll('code_challenge')).toEqual([verifier, verifier]);
  });
});
