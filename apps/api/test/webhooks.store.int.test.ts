import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { insertEmailRows } from '../src/platform/mail/mail.repository.js';
import { storeWebhookEvents } from '../src/modules/webhooks/webhooks.delivery.js';
import { organizationFactory } from './factories/organizations.js';
import { startTestServer, type TestServer } from './harness.js';

/** Events stored in one statement (webhooks.repository.ts insertEventsFindingEndpoints): what is stored. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ work: false });
});
afterAll(async () => {
  await server?.stop();
});

it('stores each event as recorded: its payload, its instant, its type, in one statement for many', async () => {
  const { organization } = await organizationFactory(server, { name: 'Stored events' });
  const other = await organizationFactory(server, { name: 'Other stored events' });
  const awkward = {
    quote: 'a "quoted" \\ back\\slash',
    unicode: 'é ü 漢字 🧾 \u2028 \u2029',
    control: 'tab\there\nnew line',
    nested: { list: [1, 2.5, null, true, { deep: '}' }], empty: {} },
    big: 9007199254740991,
  };
  const events = Array.from({ length: 30 }, (_, index) => {
    const organizationId = index % 3 === 0 ? other.organization.id : organization.id;
    const type = index % 2 === 0 ? 'customer.created' : 'order.created';
    const data = { ...awkward, index };
    return {
      eventId: randomUUID(),
      organizationId,
      type: type as 'customer.created' | 'order.created',
      data,
      payload: JSON.stringify({ type, data }),
      createdAt: new Date(Date.UTC(2026, 11, 6, 10, 0, 0, index)),
      due: new Date(),
    };
  });
  await storeWebhookEvents(server.runtime.database.db, events);
  const stored = await server.runtime.database.db
    .selectFrom('webhook_events')
    .select(['id', 'created_at', 'organization_id', 'type', 'payload', 'modified_at'])
    .where(
      'id',
      'in',
      events.map((event) => event.eventId),
    )
    .execute();
  expect(stored).toHaveLength(events.length);
  const byId = new Map(stored.map((row) => [row.id, row]));
  for (const event of events) {
    expect(byId.get(event.eventId)).toEqual({
      id: event.eventId,
      created_at: event.createdAt,
      organization_id: event.organizationId,
      type: event.type,
      payload: JSON.parse(event.payload) as unknown,
      modified_at: null,
    });
  }
});

/**
 * Migration 0053: an event's payload and an email's bodies of a sale's usual size (a few kB) stay in
 * their table's row as they are, with no pglz compression and no TOAST row (what each billing run's
 * inserts paid); a value too long for a page is still toasted and reads back whole.
 */
it('keeps a few kB of payload or email body in the row uncompressed, and still toasts what is too long', async () => {
  const db = server.runtime.database.db;
  const { organization } = await organizationFactory(server, { name: 'Inline rows' });
  // Compressible on purpose (as serialized orders are): pglz would shrink it to a fraction.
  const lines = (count: number) =>
    Array.from({ length: count }, (_, index) => ({ label: 'Monthly plan', amount: 1500, currency: 'usd', index }));
  const usual = { type: 'order.created', data: { items: lines(40) } };
  const huge = { type: 'order.created', data: { items: lines(400) } };
  const ids = { usual: randomUUID(), huge: randomUUID() };
  await storeWebhookEvents(db, [
    ...Object.entries({ usual, huge }).map(([name, body]) => ({
      eventId: ids[name as keyof typeof ids],
      organizationId: organization.id,
      type: 'order.created' as const,
      data: body.data,
      payload: JSON.stringify(body),
      createdAt: new Date(),
      due: new Date(),
    })),
  ]);
  const events = await sql<{ id: string; stored: number; length: number; payload: unknown }>`
    SELECT id, pg_column_size(payload) AS stored, octet_length(payload::text) AS length, payload
    FROM webhook_events WHERE id IN (${ids.usual}, ${ids.huge})`.execute(db);
  const byId = new Map(events.rows.map((row) => [row.id, row]));
  const usualRow = byId.get(ids.usual)!;
  expect(usualRow.length).toBeGreaterThan(3000);
  // jsonb's own form, not compressed: longer than a third of the text (pglz made it about a seventh).
  expect(usualRow.stored).toBeGreaterThan(usualRow.length / 3);
  expect(usualRow.payload).toEqual(usual);
  expect(byId.get(ids.huge)!.stored).toBeLessThan(byId.get(ids.huge)!.length / 5);
  expect(byId.get(ids.huge)!.payload).toEqual(huge);

  const html = `<p>${'Your subscription renewed. '.repeat(80)}</p>`;
  const emailId = randomUUID();
  await insertEmailRows(db, [
    {
      id: emailId,
      created_at: new Date(),
      organization_id: organization.id,
      to_addresses: ['buyer@example.com'],
      subject: 'Receipt',
      text_body: 'Your subscription renewed. '.repeat(20),
      html_body: html,
      kind: 'receipt',
      template: null,
      status: 'sent',
      sent_at: new Date(),
      next_attempt_at: null,
    },
  ]);
  const email = await sql<{ stored: number; html_body: string }>`
    SELECT pg_column_size(html_body) AS stored, html_body FROM emails WHERE id = ${emailId}`.execute(db);
  expect(email.rows[0]!.html_body).toBe(html);
  expect(email.rows[0]!.stored).toBeGreaterThanOrEqual(html.length);
});
