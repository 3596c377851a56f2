import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
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
