import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * Where webhooks may be sent, so a seller cannot make the server call into its own network (SSRF).
 * Only public unicast addresses are accepted, with two exceptions: in development (`NODE_ENV` not
 * `production`, no live Stripe key) loopback and http, for receivers on the developer's machine; and
 * the networks the operator lists in `WEBHOOK_ALLOWED_NETWORKS` (CIDR blocks), in any mode. Link-local
 * and cloud metadata addresses, private ranges and CGNAT are refused in development too.
 *
 * The check runs when an endpoint is saved and again at every delivery on the very addresses the
 * connection uses (webhooks.sender.ts), because DNS can change in between (rebinding).
 */

export interface AddressPolicy {
  /** Development: http and loopback allowed. */
  devMode: boolean;
  /** Networks the operator allowed explicitly, whatever they are. */
  allowedNetworks: Network[];
}

export interface Network {
  /** 16 bytes (IPv4 as IPv4-mapped IPv6). */
  bytes: number[];
  /** Prefix length over the 128 bits. */
  prefix: number;
}

/** The delivery policy of a configuration. */
export function addressPolicy(config: { devMode: boolean; webhookAllowedNetworks: Network[] }): AddressPolicy {
  return { devMode: config.devMode, allowedNetworks: config.webhookAllowedNetworks };
}

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
  if (a === 169 && b === 254) return 'link-local'; // 169.254.169.254: the metadata service of most clouds
  if (a === 168 && b === 63 && octets[2] === 129 && octets[3] === 16) return 'cloud metadata'; // Azure's host
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

/** The 16 bytes of an address (IPv4 as IPv4-mapped IPv6), or undefined when it is not one. */
function addressBytes(address: string): number[] | undefined {
  const version = isIP(address);
  if (version === 4) return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...parseIpv4(address)];
  if (version === 6) return ipv6Groups(address).flatMap((group) => [group >> 8, group & 0xff]);
  return undefined;
}

/**
 * `WEBHOOK_ALLOWED_NETWORKS`: comma-separated CIDR blocks or single addresses (`10.0.0.0/8`,
 * `192.168.1.7`, `fd00::/8`). Throws on anything else, so a typo stops the server instead of
 * silently allowing nothing (or more than meant).
 */
export function parseNetworks(text: string): Network[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [address = '', length] = part.split('/');
      const bytes = addressBytes(address);
      const full = isIP(address) === 4 ? 32 : 128;
      const bits = length === undefined ? full : /^\d{1,3}$/.test(length) ? Number(length) : NaN;
      if (!bytes || !(bits >= 0 && bits <= full))
        throw new Error(`WEBHOOK_ALLOWED_NETWORKS: "${part}" is not an IP address or CIDR block`);
      return { bytes, prefix: full === 32 ? 96 + bits : bits };
    });
}

/** Whether an address lies in one of the networks. Pure. */
export function inNetworks(address: string, networks: Network[]): boolean {
  const bytes = addressBytes(address.split('%')[0]!);
  if (!bytes) return false;
  return networks.some((network) => {
    for (let bit = 0; bit < network.prefix; bit++) {
      const mask = 0x80 >> (bit % 8);
      if ((bytes[bit >> 3]! & mask) !== (network.bytes[bit >> 3]! & mask)) return false;
    }
    return true;
  });
}

const LOOPBACK = new Set(['loopback', 'IPv4-mapped loopback']);

/** Why a webhook may not be sent to this address under the policy, or undefined when it may. Pure. */
export function addressProblem(address: string, policy: AddressPolicy): string | undefined {
  if (inNetworks(address, policy.allowedNetworks)) return undefined;
  const reason = nonPublicReason(address);
  if (reason && policy.devMode && LOOPBACK.has(reason)) return undefined;
  return reason;
}

/**
 * Checks a URL when an endpoint is saved: syntax, then every address its host resolves to. A host that
 * does not resolve is refused outside development (in development the receiver may not exist yet; every
 * delivery checks again). Returns the problem, or undefined when the URL may be saved.
 */
export async function urlProblem(
  raw: string,
  policy: AddressPolicy,
  resolve: Resolver = systemResolver,
): Promise<string | undefined> {
  const syntax = urlSyntaxProblem(raw, policy.devMode);
  if (syntax) return syntax;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return policy.devMode ? undefined : `The host ${host} could not be resolved`;
  }
  if (addresses.length === 0) return policy.devMode ? undefined : `The host ${host} could not be resolved`;
  for (const address of addresses) {
    const reason = addressProblem(address, policy);
    if (reason) return `The host ${host} resolves to a non-public address (${reason})`;
  }
  return undefined;
}
