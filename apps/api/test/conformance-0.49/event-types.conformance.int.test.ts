import { Polar } from '@polar-sh/sdk-0.49';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/platform/clock.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { startTestServer, type TestServer } from '../harness.js';
import { withZodIssues } from './issues.js';

/**
 * `eventTypes.list` and `eventTypes.update` through `@polar-sh/sdk@0.49`: the types of ingested
 * events with their statistics, and a label that the events then show.
 */
let server: TestServer;
let acme: OrganizationFixture;
let polar: Polar;

beforeAll(async () => {
  server = await startTestServer({ listen: true, clock: systemClock });
  acme = await organizationFactory(server, { name: 'Acme' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
  await polar.events.ingest({
    events: [
      { name: 'sdk.call', externalCustomerId: 'u1', timestamp: new Date('2026-01-01T00:00:00Z') },
      { name: 'sdk.call', externalCustomerId: 'u2', timestamp: new Date('2026-01-02T00:00:00Z') },
      { name: 'sdk.upload', externalCustomerId: 'u1', timestamp: new Date('2026-01-03T00:00:00Z') },
    ],
  });
});
afterAll(() => server?.stop());

describe('event types through @polar-sh/sdk@0.49', () => {
  it('eventTypes.list pages the types with their statistics', async () => {
    const page = await withZodIssues(() =>
      polar.eventTypes.list({ sorting: ['-occurrences'], externalCustomerId: 'u1' }),
    );
    expect(page.result.items.map((t) => [t.name, t.occurrences, t.source])).toEqual([
      ['sdk.call', 1, 'user'],
      ['sdk.upload', 1, 'user'],
    ]);
    const all = await withZodIssues(() => polar.eventTypes.list({ rootEvents: true }));
    expect(all.result.items.find((t) => t.name === 'sdk.call')?.lastSeen).toEqual(new Date('2026-01-02T00:00:00Z'));
  });

  it('eventTypes.update sets the label the events show', async () => {
    const listed = await polar.eventTypes.list({ query: 'upload' });
    const id = listed.result.items[0]!.id!;
    const updated = await withZodIssues(() =>
      polar.eventTypes.update({ id, eventTypeUpdate: { label: 'Upload', labelPropertySelector: 'file' } }),
    );
    expect(updated).toMatchObject({ id, name: 'sdk.upload', label: 'Upload', labelPropertySelector: 'file' });
    const events = await polar.events.list({ name: 'sdk.upload' });
    expect(events.items.map((e) => e.label)).toEqual(['Upload']);
  });
});
