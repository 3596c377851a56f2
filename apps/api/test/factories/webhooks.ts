import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordWebhookEvent, type WebhookEventType } from '../../src/platform/events.js';
import { WebhookEndpointCreate } from '../../src/modules/webhooks/webhooks.schemas.js';
import type { WebhookEndpointWire } from '../../src/modules/webhooks/webhooks.serializer.js';
import { createEndpoint } from '../../src/modules/webhooks/webhooks.service.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/platform/events.js';
import type { TestServer } from '../harness.js';

/** A webhook endpoint of the organization, created through the service (every event type unless told). */
export async function webhookEndpointFactory(
  server: TestServer,
  organizationId: string,
  overrides: Record<string, unknown> = {},
): Promise<WebhookEndpointWire> {
  const ctx = server.context({
    kind: 'organization',
    organizationId,
    tokenId: 'factory',
    scopes: new Set(['webhooks:write']),
  });
  const body = WebhookEndpointCreate.parse({
    url: 'http://127.0.0.1:9/unused',
    format: 'raw',
    secret: 'whsec_test_secret',
    events: [...WEBHOOK_EVENT_TYPES],
    ...overrides,
  });
  return server.runtime.database.db.transaction().execute((tx) => createEndpoint({ ...ctx, db: tx }, body));
}

/** Records a business event as a service would (its own transaction). */
export async function emitWebhookEvent(
  server: TestServer,
  organizationId: string,
  type: WebhookEventType,
  data: unknown,
): Promise<string> {
  return server.runtime.database.db
    .transaction()
    .execute((tx) => recordWebhookEvent(server.runtime.context(tx), organizationId, type, data));
}

export interface ReceivedWebhook {
  /** The request's path (one receiver can stand for several endpoints). */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Responder = (
  request: ReceivedWebhook,
  index: number,
) => { status: number; body?: string; delayMs?: number; after?: Promise<unknown> };

/**
 * A real HTTP receiver on 127.0.0.1: records every request (path, headers and raw body) and answers
 * what `respond` says (200 by default; `delayMs` to be slow; `after`: not before that promise settles,
 * to hold a request in flight). `respond` can be replaced at any time.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  respond: Responder = () => ({ status: 200, body: 'ok' });
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request = {
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        const index = this.received.push(request) - 1;
        const answer = this.respond(request, index);
        const reply = () => {
          if (res.destroyed) return;
          res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? '');
        };
        if (answer.after) void answer.after.finally(reply);
        else if (answer.delayMs) setTimeout(reply, answer.delayMs);
        else reply();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Requests whose body is the event of this type (raw endpoints). */
  ofType(type: string): ReceivedWebhook[] {
    return this.received.filter((r) => {
      try {
        return (JSON.parse(r.body) as { type?: string }).type === type;
      } catch {
        return false;
      }
    });
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Headers as the verification libraries take them (string values). */
export function plainHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) if (typeof value === 'string') out[key] = value;
  return out;
}
