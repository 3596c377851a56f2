import { describe, expect, it } from 'vitest';
import { ipv6Groups, nonPublicReason, urlProblem, urlSyntaxProblem } from './webhooks.url-guard.js';

describe('nonPublicReason', () => {
  const cases: [string, string | undefined][] = [
    ['8.8.8.8', undefined],
    ['1.1.1.1', undefined],
    ['93.184.216.34', undefined],
    ['0.0.0.0', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.15.0.1', undefined],
    ['172.32.0.1', undefined],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.1.2.3', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared address space (CGNAT)'],
    ['100.127.255.255', 'shared address space (CGNAT)'],
    ['100.128.0.1', undefined],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::1', 'private (unique local)'],
    ['fd12:3456::1', 'private (unique local)'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.1.2.3', 'IPv4-mapped private'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['::ffff:8.8.8.8', undefined],
    ['64:ff9b::7f00:1', 'NAT64 loopback'],
    ['2001:db8::1', 'documentation'],
    ['2606:4700:4700::1111', undefined],
    ['2a00:1450:4001:80b::200e', undefined],
    ['not-an-ip', 'not an IP address'],
  ];
  it.each(cases)('%s → %s', (address, reason) => {
    expect(nonPublicReason(address)).toBe(reason);
  });
});

describe('ipv6Groups', () => {
  it.each([
    ['::1', [0, 0, 0, 0, 0, 0, 0, 1]],
    ['fe80::1:2', [0xfe80, 0, 0, 0, 0, 0, 1, 2]],
    ['::ffff:1.2.3.4', [0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]],
    ['1:2:3:4:5:6:7:8', [1, 2, 3, 4, 5, 6, 7, 8]],
  ])('%s', (address, groups) => {
    expect(ipv6Groups(address)).toEqual(groups);
  });
});

describe('urlSyntaxProblem', () => {
  it.each([
    ['https://example.com/hook', false, undefined],
    ['http://example.com/hook', false, 'URL scheme should be https'],
    ['http://127.0.0.1:3000/hook', true, undefined],
    ['ftp://example.com/', true, 'URL scheme should be http or https'],
    ['not a url', false, 'Input should be a valid URL'],
    ['https://user:pass@example.com/', false, 'URL should not contain credentials'],
    [`https://example.com/${'a'.repeat(2100)}`, false, 'URL should have at most 2083 characters'],
  ])('%s (dev %s) → %s', (url, dev, problem) => {
    expect(urlSyntaxProblem(url, dev)).toBe(problem);
  });
});

describe('urlProblem', () => {
  const resolver = (table: Record<string, string[]>) => async (host: string) => {
    const found = table[host];
    if (!found) throw new Error('ENOTFOUND');
    return found;
  };
  const dns = resolver({
    'public.test': ['93.184.216.34', '2606:4700:4700::1111'],
    'mixed.test': ['93.184.216.34', '10.0.0.5'],
    'inside.test': ['::ffff:192.168.0.10'],
  });

  it.each([
    ['https://public.test/hook', undefined],
    ['https://mixed.test/hook', 'The host mixed.test resolves to a non-public address (private)'],
    ['https://inside.test/hook', 'The host inside.test resolves to a non-public address (IPv4-mapped private)'],
    ['https://missing.test/hook', 'The host missing.test could not be resolved'],
    ['https://127.0.0.1/hook', 'The host 127.0.0.1 resolves to a non-public address (loopback)'],
    ['https://[::1]/hook', 'The host ::1 resolves to a non-public address (loopback)'],
    ['https://[fe80::1]/hook', 'The host fe80::1 resolves to a non-public address (link-local)'],
    ['http://public.test/hook', 'URL scheme should be https'],
  ])('production: %s → %s', async (url, problem) => {
    expect(await urlProblem(url, false, dns)).toBe(problem);
  });

  it('allows http and loopback in development without resolving', async () => {
    expect(await urlProblem('http://127.0.0.1:9/hook', true, dns)).toBeUndefined();
    expect(await urlProblem('http://localhost:9/hook', true, dns)).toBeUndefined();
  });
});
