import { stdSerializers, type DestinationStream, type LoggerOptions } from 'pino';
import { TOKEN_PREFIX } from './auth/tokens.js';

/**
 * Secrets never reach the logs. Three layers, all built on `redactSecrets`:
 *
 * 1. The request serializer writes the method, a redacted URL (`redactUrl`: secret-bearing path
 *    segments and query values) and the remote address, never headers (authorization, cookies).
 * 2. Structured fields named like secrets (`password`, `token`, `client_secret`, headers…) are
 *    censored by pino's `redact` before they are written.
 * 3. Every line, whatever logged it (an error message quoting a URL, a library's own log), goes
 *    through `redactSecrets` on its way to the output, which replaces every token-shaped value.
 */

export const REDACTED = '[redacted]';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Tessera's own tokens (prefix + base62 body, platform/auth/tokens.ts), longest prefix first. */
const OWN_TOKEN = new RegExp(
  `(?:${Object.values(TOKEN_PREFIX)
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|')})[0-9A-Za-z]+`,
  'g',
);

/** Token shapes of others and of common formats. */
const FOREIGN_TOKENS: RegExp[] = [
  // Stripe secret and restricted keys, webhook signing secrets, PaymentIntent/SetupIntent client secrets.
  /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]+/g,
  /\bwhsec_[0-9A-Za-z+/=_-]+/g,
  /\b(?:pi|seti|cs)_[0-9A-Za-z]+_secret_[0-9A-Za-z]+/g,
  // The simulated processor's single-use card tokens.
  /\bctoken_sim_[0-9a-f]+/g,
  // JSON Web Tokens (header.payload.signature, base64url).
  /\beyJ[0-9A-Za-z_-]+\.[0-9A-Za-z_-]+\.[0-9A-Za-z_-]+/g,
];

/** The password of a URL's user information (SMTP_URL, DATABASE_URL) as an error message may quote it. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]*:)[^\s@/]+@/gi;

/** `Bearer x`, `Basic x` as an authorization header or an error message carries them. */
const AUTH_SCHEME = /\b(Bearer|Basic)(\s+|%20|\+)[0-9A-Za-z._~+/=%-]+/gi;

/** Names of query parameters and JSON fields whose values are secrets whatever they look like. */
const SECRET_NAME = /token|secret|session|password|passwd|signature|credential|authorization|cookie|api[_-]?key|code/i;

/** `"name":"value"` pairs in a JSON line whose name is a secret's (the last line of defence). */
const SECRET_JSON_FIELD =
  /"((?:[A-Za-z0-9_-]*?)(?:token|secret|password|passwd|authorization|cookie|api[_-]?key))":"(?:[^"\\]|\\.)*"/gi;

/** Replaces every token-shaped value in a text. Pure: table-tested. */
export function redactSecrets(text: string): string {
  let out = text.replace(OWN_TOKEN, REDACTED);
  for (const pattern of FOREIGN_TOKENS) out = out.replace(pattern, REDACTED);
  out = out.replace(AUTH_SCHEME, (_match, scheme: string, space: string) => `${scheme}${space}${REDACTED}`);
  out = out.replace(URL_PASSWORD, (_match, head: string) => `${head}${REDACTED}@`);
  return out;
}

/**
 * Path segments that are secrets by position: a checkout's client secret (API and hosted page), a
 * checkout link's client secret, a downloadable's signed token.
 */
const SECRET_SEGMENTS: RegExp[] = [
  /^(\/v1\/checkouts\/client\/)([^/?#]+)/,
  /^(\/v1\/checkout-links\/)([^/?#]+)(?=\/redirect)/,
  /^(\/checkout\/)([^/?#]+)/,
  /^(\/v1\/customer-portal\/downloadables\/)([^/?#]+)/,
];

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** Whether a (raw or decoded) value holds a secret. */
function holdsSecret(value: string): boolean {
  return redactSecrets(value) !== value || redactSecrets(safeDecode(value)) !== safeDecode(value);
}

/**
 * A URL (or a request's path and query) with its secrets replaced: token-shaped path segments and
 * secret-bearing positions, the values of query parameters named like secrets, and any query value
 * holding a token. Everything else is kept, so logs still say which resource was asked for. Pure.
 */
export function redactUrl(url: string): string {
  const hashAt = url.indexOf('#');
  const withoutHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = withoutHash.indexOf('?');
  let path = queryAt === -1 ? withoutHash : withoutHash.slice(0, queryAt);
  const query = queryAt === -1 ? undefined : withoutHash.slice(queryAt + 1);

  // An absolute URL: redact its path from the first slash after the authority.
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path)?.[0] ?? '';
  path = path.slice(origin.length);
  for (const pattern of SECRET_SEGMENTS) path = path.replace(pattern, (_m, head: string) => `${head}${REDACTED}`);
  path = path
    .split('/')
    .map((segment) => (holdsSecret(segment) ? REDACTED : segment))
    .join('/');

  let out = `${redactSecrets(origin)}${path}`;
  if (query !== undefined) {
    const params = query.split('&').map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      if (equals === -1) return holdsSecret(name) ? REDACTED : name;
      const value = pair.slice(equals + 1);
      if (SECRET_NAME.test(safeDecode(name)) || holdsSecret(value)) return `${name}=${REDACTED}`;
      return pair;
    });
    out += `?${params.join('&')}`;
  }
  // A fragment may carry tokens too (implicit OAuth flows): it never reaches a server, but be sure.
  return hashAt === -1 ? out : `${out}#${REDACTED}`;
}

/** The last line of defence, over a whole serialized log line. */
export function redactLogLine(line: string): string {
  return redactSecrets(line).replace(SECRET_JSON_FIELD, (_match, name: string) => `"${name}":"${REDACTED}"`);
}

interface RequestLike {
  method?: string;
  url?: string;
  ip?: string;
  host?: string;
  socket?: { remotePort?: number };
}

/** The serializers of every logger: the request without headers and with a redacted URL. */
export const logSerializers = {
  req(request: RequestLike) {
    return {
      method: request.method,
      url: request.url === undefined ? undefined : redactUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
  res(reply: { statusCode?: number }) {
    return { statusCode: reply.statusCode };
  },
  err: stdSerializers.err,
};

/** Structured paths censored before a line is written (layer 2). */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  '*.headers.authorization',
  '*.headers.cookie',
  'password',
  '*.password',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'client_secret',
  '*.client_secret',
  'customer_session_token',
  '*.customer_session_token',
];

/** Logger options with the redaction layers 1 and 2. */
export function loggerOptions(level: string, base: Record<string, unknown>): LoggerOptions {
  return {
    level,
    base,
    serializers: logSerializers,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
  };
}

/** A destination that redacts every line before passing it on (layer 3). */
export function redactingDestination(target: DestinationStream & { flushSync?: () => void }): DestinationStream {
  return {
    write(line: string) {
      target.write(redactLogLine(line));
    },
    ...(target.flushSync ? { flushSync: () => target.flushSync!() } : {}),
  } as DestinationStream;
}
