import { describe, expect, it } from 'vitest';
import { isAllowedRedirectUri, isHttpUrl, parseScopes } from './oauth2.rules.js';

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
