import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * Where webhooks may be sent. Outside development only https URLs whose host resolves (every address)
 * to public unicast addresses are accepted, so a seller cannot make the server call into its own
 * network (SSRF). The check runs when an endpoint is saved and again right before each delivery,
 * because DNS can change in between. In development, http and loopback are allowed for local receivers.
 */

/** Why an address is not public, or undefined when it is. Pure: table-tested. */
export function nonPublicReason(address: string): string | undefined {
  const version = isIP(address);
  if (version === 4) return ipv4Reason(parseIpv4(address));
  if (version === 6) return ipv6Reason(address);
  return 'not an IP address';
}

function parseIpv4(address: string): number[] {
  return address.split('.').map(Number);
}

function ipv4Reason(octets: number[]): string | undefined {
  const a = octets[0] ?? 0;
  const b = octets[1] ?? 0;
  if (a === 0) return 'unspecified';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 127) return 'loopback';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 100 && b >= 64 && b <= 127) return 'shared address space (CGNAT)';
  if (a >= 224 && a <= 239) return 'multicast';
  if (a >= 240) return 'reserved';
  if (a === 192 && b === 0) return 'reserved'; // 192.0.0.0/24 protocol assignments, 192.0.2.0/24 docs
  if (a === 198 && (b === 18 || b === 19)) return 'reserved'; // benchmarking
  return undefined;
}

/** The 8 groups of an IPv6 address, expanded (an embedded dotted IPv4 tail becomes two groups). */
export function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = parseIpv4(dotted[1]!) as [number, number, number, number];
    text = text.slice(0, -dotted[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...new Array<number>(missing).fill(0), ...right];
}

function ipv6Reason(address: string): string | undefined {
  const g = ipv6Groups(address);
  const first = g[0]!;
  if (g.every((group) => group === 0)) return 'unspecified';
  if (g.slice(0, 7).every((group) => group === 0) && g[7] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and the deprecated IPv4-compatible (::a.b.c.d): judge the IPv4 inside.
  const mapped = g.slice(0, 5).every((group) => group === 0) && (g[5] === 0xffff || g[5] === 0);
  if (mapped) {
    const v4 = [g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff];
    const reason = ipv4Reason(v4);
    return reason ? `IPv4-mapped ${reason}` : undefined;
  }
  // NAT64 (64:ff9b::/96) embeds an IPv4 address too.
  if (first === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((group) => group === 0)) {
    const reason = ipv4Reason([g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff]);
    return reason ? `NAT64 ${reason}` : undefined;
  }
  if ((first & 0xfe00) === 0xfc00) return 'private (unique local)';
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  if ((first & 0xffc0) === 0xfec0) return 'site-local';
  if ((first & 0xff00) === 0xff00) return 'multicast';
  if (first === 0x2001 && g[1] === 0x0db8) return 'documentation';
  // Global unicast is 2000::/3; everything else is reserved.
  if ((first & 0xe000) !== 0x2000) return 'reserved';
  return undefined;
}

/** Syntax rules of an endpoint URL; returns the problem or undefined. Pure. */
export function urlSyntaxProblem(raw: string, devMode: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Input should be a valid URL';
  }
  if (raw.length > 2083) return 'URL should have at most 2083 characters';
  if (!url.hostname) return 'URL should have a host';
  if (url.username || url.password) return 'URL should not contain credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && devMode) return undefined;
  return devMode ? 'URL scheme should be http or https' : 'URL scheme should be https';
}

export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Checks a URL for delivery: syntax, then (outside development) every address its host resolves to.
 * Returns the problem, or undefined when the URL may be called.
 */
export async function urlProblem(
  raw: string,
  devMode: boolean,
  resolve: Resolver = systemResolver,
): Promise<string | undefined> {
  const syntax = urlSyntaxProblem(raw, devMode);
  if (syntax || devMode) return syntax;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return `The host ${host} could not be resolved`;
  }
  if (addresses.length === 0) return `The host ${host} could not be resolved`;
  for (const address of addresses) {
    const reason = nonPublicReason(address);
    if (reason) return `The host ${host} resolves to a non-public address (${reason})`;
  }
  return undefined;
}
