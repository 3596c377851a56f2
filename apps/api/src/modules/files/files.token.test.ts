import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { downloadTokenKey, issueDownloadToken, verifyDownloadToken } from './files.token.js';

const key = downloadTokenKey('a-server-secret-of-at-least-32-characters');
const id = '0b6c3a52-5d4e-4a3f-9a51-5a0d8f2e6c11';
const expiresAt = new Date('2030-01-01T00:00:00Z');
const token = issueDownloadToken(key, id, expiresAt);
const before = new Date('2029-12-31T23:59:00Z');
const forge = (payload: unknown) => {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return issueDownloadToken(key, id, expiresAt).replace(/^[^.]+/, body);
};

describe('verifyDownloadToken', () => {
  it.each([
    ['the token as issued', token, before, { kind: 'valid', id }],
    ['at its expiry', token, expiresAt, { kind: 'expired' }],
    [
      'another secret',
      issueDownloadToken(downloadTokenKey('another-secret-of-at-least-32-characters'), id, expiresAt),
      before,
      { kind: 'invalid' },
    ],
    ['a changed payload', forge({ id, exp: 2_000_000_000 }), before, { kind: 'invalid' }],
    ['no dot', 'abc', before, { kind: 'malformed' }],
    ['three parts', 'a.b.c', before, { kind: 'malformed' }],
    ['not base64url', 'a+b.c/d', before, { kind: 'malformed' }],
    ['empty', '', before, { kind: 'malformed' }],
  ] as const)('%s', (_name, given, now, verdict) => {
    expect(verifyDownloadToken(key, given, now)).toEqual(verdict);
  });

  it('a signed payload without an id is malformed', () => {
    const payload = Buffer.from(JSON.stringify({ exp: 2_000_000_000 })).toString('base64url');
    const signature = createHmac('sha256', key).update(payload).digest('base64url');
    expect(verifyDownloadToken(key, `${payload}.${signature}`, before)).toEqual({ kind: 'malformed' });
  });
});
