import { describe, expect, it } from 'vitest';
import {
  addressProblem,
  inNetworks,
  ipv6Groups,
  nonPublicReason,
  parseNetworks,
  urlProblem,
  urlSyntaxProblem,
} from './webhooks.url-guard.js';

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
    expect(await urlProblem(url, { devMode: false, allowedNetworks: [] }, dns)).toBe(problem);
  });

  it('allows http and loopback in development', async () => {
    const development = { devMode: true, allowedNetworks: [] };
    expect(await urlProblem('http://127.0.0.1:9/hook', development, dns)).toBeUndefined();
    expect(await urlProblem('http://localhost:9/hook', development)).toBeUndefined();
  });
});

describe('parseNetworks and inNetworks', () => {
  it('parses CIDR blocks and single addresses, IPv4 and IPv6', () => {
    const networks = parseNetworks('10.0.0.0/8, 192.168.1.7 ,fd00:ec2::/32');
    expect(inNetworks('10.200.3.4', networks)).toBe(true);
    expect(inNetworks('::ffff:10.1.1.1', networks)).toBe(true);
    expect(inNetworks('11.0.0.1', networks)).toBe(false);
    expect(inNetworks('192.168.1.7', networks)).toBe(true);
    expect(inNetworks('192.168.1.8', networks)).toBe(false);
    expect(inNetworks('fd00:ec2::254', networks)).toBe(true);
    expect(inNetworks('fd00:ec3::254', networks)).toBe(false);
    expect(parseNetworks('')).toEqual([]);
  });

  it.each(['10.0.0.0/33', 'fd00::/129', 'example.com', '10.0.0/8', '1.2.3.4/-1'])('refuses %s', (text) => {
    expect(() => parseNetworks(text)).toThrow(/WEBHOOK_ALLOWED_NETWORKS/);
  });
});

describe('addressProblem', () => {
  const development = { devMode: true, allowedNetworks: [] };
  const production = { devMode: false, allowedNetworks: [] };
  const allowing = { devMode: true, allowedNetworks: parseNetworks('10.1.0.0/16,169.254.169.254/32') };
  it.each([
    // Development: loopback is fine (local receivers); the rest of the non-public space is not.
    [development, '127.0.0.1', undefined],
    [development, '::1', undefined],
    [development, '::ffff:127.0.0.1', undefined],
    [development, '169.254.169.254', 'link-local'],
    [development, '168.63.129.16', 'cloud metadata'],
    [development, 'fe80::1', 'link-local'],
    [development, '10.0.0.1', 'private'],
    [development, '172.16.0.1', 'private'],
    [development, '192.168.0.1', 'private'],
    [development, 'fd00:ec2::254', 'private (unique local)'],
    [development, '100.64.0.1', 'shared address space (CGNAT)'],
    [development, '0.0.0.0', 'unspecified'],
    [development, '8.8.8.8', undefined],
    // Production: loopback too.
    [production, '127.0.0.1', 'loopback'],
    [production, '::1', 'loopback'],
    [production, '8.8.8.8', undefined],
    // Networks the operator allowed.
    [allowing, '10.1.2.3', undefined],
    [allowing, '10.2.0.1', 'private'],
    [allowing, '169.254.169.254', undefined],
  ])('%o %s → %s', (policy, address, problem) => {
    expect(addressProblem(address, policy)).toBe(problem);
  });
});

describe('urlProblem in development', () => {
  const dns = async (host: string) => {
    const table: Record<string, string[]> = { 'inside.test': ['10.0.0.5'], 'local.test': ['127.0.0.1'] };
    if (!table[host]) throw new Error('ENOTFOUND');
    return table[host];
  };
  const development = { devMode: true, allowedNetworks: [] };
  it.each([
    ['http://127.0.0.1:9/hook', undefined],
    ['http://local.test:9/hook', undefined],
    ['http://[::1]:9/hook', undefined],
    [
      'http://169.254.169.254/latest/meta-data',
      'The host 169.254.169.254 resolves to a non-public address (link-local)',
    ],
    ['http://10.0.0.1/hook', 'The host 10.0.0.1 resolves to a non-public address (private)'],
    ['http://inside.test/hook', 'The host inside.test resolves to a non-public address (private)'],
    // Not resolvable yet: accepted in development, checked again at every delivery.
    ['http://later.test/hook', undefined],
  ])('%s → %s', async (url, problem) => {
    expect(await urlProblem(url, development, dns)).toBe(problem);
  });

  it('accepts an address the operator allowed', async () => {
    const policy = { devMode: true, allowedNetworks: parseNetworks('10.0.0.0/8') };
    expect(await urlProblem('http://inside.test/hook', policy, dns)).toBeUndefined();
  });
});
