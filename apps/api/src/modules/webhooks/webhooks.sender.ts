import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { addressProblem, urlSyntaxProblem, type AddressPolicy } from './webhooks.url-guard.js';

/** Standard Webhooks signing and the HTTP POST of one delivery attempt. */

export const USER_AGENT = 'Tessera Webhooks (+https://github.com/tessera)';
/** How much of a response body the delivery log keeps: 2 KiB (UTF-8 bytes, never half a character). */
export const RESPONSE_LIMIT = 2048;

/**
 * `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>` where the key is the UTF-8 bytes of the
 * secret exactly as stored (the reference hands `base64(secret)` to its Standard Webhooks signer).
 */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export interface SendRequest {
  url: string;
  body: string;
  webhookId: string;
  secret: string;
  /** Unix seconds of this attempt. */
  timestamp: number;
  timeoutMs: number;
  /** Which addresses may be called (webhooks.url-guard.ts), checked on every address connected to. */
  policy: AddressPolicy;
}

export interface SendResult {
  /** The HTTP status, or null when there was no response. */
  httpCode: number | null;
  succeeded: boolean;
  /** The response body, truncated. */
  response: string | null;
  /** Why there was no success without a status (timeout, refused address, network error). */
  error: string | null;
  durationMs: number;
  /** HTTP 410: the receiver asks us to stop. */
  gone: boolean;
}

class RefusedAddress extends Error {}

/**
 * A DNS lookup that refuses addresses the policy does not allow, so the connection uses exactly what
 * was checked (a second resolution could answer differently: DNS rebinding).
 */
function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      for (const entry of addresses) {
        const reason = addressProblem(entry.address, policy);
        if (reason)
          return callback(new RefusedAddress(`${hostname} resolves to a non-public address (${reason})`), '', 0);
      }
      if (addresses.length === 0) return callback(new Error(`${hostname} did not resolve`), '', 0);
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * Keep-alive connection pools, one per receiving origin and address policy: consecutive deliveries to
 * an endpoint reuse a connection instead of opening one per attempt. The policy is part of the key
 * because a pooled connection skips the lookup that checked its address. Idle connections are closed
 * after FREE_SOCKET_MS, below the 5 s keep-alive most servers (Node's included) close them at.
 */
const FREE_SOCKET_MS = 4_000;
const agents = new Map<string, http.Agent>();

function agentFor(url: URL, policy: AddressPolicy): http.Agent {
  const key = `${url.protocol}//${url.host} ${policy.devMode} ${JSON.stringify(policy.allowedNetworks)}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, maxSockets: 8, maxFreeSockets: 8, timeout: FREE_SOCKET_MS };
    agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

/** Closes every pooled connection (a stopping process). */
export function closeSenderConnections(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

function failure(started: number, error: string): SendResult {
  return { httpCode: null, succeeded: false, response: null, error, durationMs: Date.now() - started, gone: false };
}

/**
 * POSTs one attempt. Never throws: every outcome is a result. Redirects are not followed. A pooled
 * connection the receiver closed just as it was reused fails before any byte was answered; that case
 * is sent once more on a fresh connection.
 */
export async function send(request: SendRequest): Promise<SendResult> {
  const started = Date.now();
  const first = await sendOnce(request, started, true);
  if (first !== 'stale-connection') return first;
  const second = await sendOnce(request, started, false);
  return second === 'stale-connection' ? failure(started, 'connection reset') : second;
}

function sendOnce(request: SendRequest, started: number, pooled: boolean): Promise<SendResult | 'stale-connection'> {
  const syntax = urlSyntaxProblem(request.url, request.policy.devMode);
  if (syntax) return Promise.resolve(failure(started, syntax));
  const url = new URL(request.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An address in the URL is connected to without a lookup: check it here. No connection is made to a
  // refused address, so nothing of it reaches the delivery log.
  if (isIP(host)) {
    const reason = addressProblem(host, request.policy);
    if (reason) return Promise.resolve(failure(started, `non-public address (${reason})`));
  }
  const body = Buffer.from(request.body, 'utf8');
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult | 'stale-connection') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = client.request(
      url,
      {
        method: 'POST',
        agent: pooled ? agentFor(url, request.policy) : false,
        lookup: guardedLookup(request.policy),
        headers: {
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': USER_AGENT,
          'webhook-id': request.webhookId,
          'webhook-timestamp': String(request.timestamp),
          'webhook-signature': sign(request.secret, request.webhookId, request.timestamp, request.body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let length = 0;
        const done = () => {
          const status = res.statusCode ?? 0;
          // `stream` leaves a character cut at the limit out instead of decoding half of it.
          const text = new TextDecoder().decode(Buffer.concat(chunks).subarray(0, RESPONSE_LIMIT), { stream: true });
          finish({
            httpCode: status,
            succeeded: status >= 200 && status < 300,
            response: text,
            error: status >= 300 && status < 400 ? 'redirects are not followed' : null,
            durationMs: Date.now() - started,
            gone: status === 410,
          });
        };
        res.on('data', (chunk: Buffer) => {
          if (length < RESPONSE_LIMIT * 4) chunks.push(chunk);
          length += chunk.length;
          // Enough kept: stop reading a large or endless body (its connection is not reused).
          if (length >= RESPONSE_LIMIT * 4) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish(failure(started, `timed out after ${request.timeoutMs} ms`));
    }, request.timeoutMs);
    req.on('error', (error) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (req.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE')) finish('stale-connection');
      else finish(failure(started, error.message));
    });
    req.end(body);
  });
}
