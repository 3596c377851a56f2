import { Polar } from '@polar-sh/sdk';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchaseFactory, typedBenefitFactory, waitForGrant } from '../factories/benefit-grants.js';
import { customerFactory } from '../factories/customers.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { startTestServer, type TestServer } from '../harness.js';

/**
 * Events, meters, customer meters and the portal's meters through the official `@polar-sh/sdk@0.33.2`:
 * every response passes the SDK's own validation or the call throws. (The SDK's Meter schema accepts
 * only the count and avg aggregations, so the meters read through it use those.)
 */
let server: TestServer;
let acme: OrganizationFixture;
let polar: Polar;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  acme = await organizationFactory(server, { name: 'Acme' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
});
afterAll(() => server?.stop());

const minutesAgo = (minutes: number) => new Date(server.clock.now().getTime() - minutes * 60_000);

describe('usage through @polar-sh/sdk', () => {
  let customerId: string;
  let meterId: string;

  it('meters.create, get, list, update', async () => {
    const meter = await polar.meters.create({
      name: 'Completions',
      filter: {
        conjunction: 'and',
        clauses: [
          { property: 'name', operator: 'eq', value: 'llm.completion' },
          { conjunction: 'or', clauses: [{ property: 'plan', operator: 'ne', value: 'free' }] },
        ],
      },
      aggregation: { func: 'count' },
      metadata: { team: 'ai' },
    });
    meterId = meter.id;
    expect(meter).toMatchObject({
      name: 'Completions',
      organizationId: acme.organization.id,
      metadata: { team: 'ai' },
    });
    expect((await polar.meters.get({ id: meter.id })).id).toBe(meter.id);
    const page = await polar.meters.list({ query: 'complet' });
    expect(page.result.items.map((m) => m.id)).toEqual([meter.id]);
    const updated = await polar.meters.update({ id: meter.id, meterUpdate: { name: 'LLM completions' } });
    expect(updated.name).toBe('LLM completions');
    const avg = await polar.meters.create({
      name: 'Latency',
      filter: { conjunction: 'and', clauses: [] },
      aggregation: { func: 'avg', property: 'ms' },
    });
    expect(avg.aggregation).toMatchObject({ func: 'avg' });
  });

  it('events.ingest, list, listNames, get', async () => {
    const customer = await customerFactory(server, acme.organization.id, { external_id: 'sdk-ext' });
    customerId = customer.id;
    const result = await polar.events.ingest({
      events: [
        {
          name: 'llm.completion',
          customerId: customer.id,
          metadata: { plan: 'pro', ms: 120 },
          timestamp: minutesAgo(5),
        },
        { name: 'llm.completion', externalCustomerId: 'sdk-ext', metadata: { plan: 'team' }, timestamp: minutesAgo(4) },
        { name: 'llm.completion', externalCustomerId: 'sdk-ext', metadata: { plan: 'free' }, timestamp: minutesAgo(3) },
        { name: 'page.view', externalCustomerId: 'not-yet' },
      ],
    });
    expect(result.inserted).toBe(4);

    const events = await polar.events.list({ customerId: customer.id, sorting: ['timestamp'] });
    expect(events.result.items).toHaveLength(3);
    expect(events.result.items[0]).toMatchObject({ name: 'llm.completion', customer: { id: customer.id } });
    const metered = await polar.events.list({ meterId });
    expect(metered.result.items).toHaveLength(2);
    const filtered = await polar.events.list({
      filter: JSON.stringify({ conjunction: 'and', clauses: [{ property: 'plan', operator: 'eq', value: 'free' }] }),
    });
    expect(filtered.result.items).toHaveLength(1);
    const byMetadata = await polar.events.list({ metadata: { plan: 'team' } });
    expect(byMetadata.result.items).toHaveLength(1);

    const one = await polar.events.get({ id: events.result.items[0]!.id });
    expect(one.id).toBe(events.result.items[0]!.id);
    const unattached = (await polar.events.list({ externalCustomerId: 'not-yet' })).result.items[0]!;
    expect(unattached).toMatchObject({ customerId: null, customer: null, externalCustomerId: 'not-yet' });

    const names = await polar.events.listNames({ sorting: ['name'] });
    expect(names.result.items.map((n) => [n.name, n.occurrences])).toEqual([
      ['llm.completion', 3],
      ['page.view', 1],
    ]);
  });

  it('meters.quantities', async () => {
    const now = server.clock.now();
    const quantities = await polar.meters.quantities({
      id: meterId,
      startTimestamp: new Date(now.getTime() - 2 * 3_600_000),
      endTimestamp: now,
      interval: 'hour',
      customerId,
    });
    expect(quantities.quantities).toHaveLength(3);
    expect(quantities.total).toBe(2);
  });

  it('customerMeters.list and get', async () => {
    const page = await polar.customerMeters.list({ customerId, meterId });
    expect(page.result.items).toHaveLength(1);
    const item = page.result.items[0]!;
    expect(item).toMatchObject({ consumedUnits: 2, creditedUnits: 0, balance: -2, customer: { id: customerId } });
    expect((await polar.customerMeters.get({ id: item.id })).id).toBe(item.id);
  });

  it('customerPortal.customerMeters.list and get', async () => {
    const session = await polar.customerSessions.create({ customerId });
    const security = { customerSession: session.token };
    const page = await polar.customerPortal.customerMeters.list(security, { sorting: ['meter_name'] });
    expect(page.result.items.map((i) => [i.meter.name, i.consumedUnits])).toEqual([
      ['Latency', 120],
      ['LLM completions', 2],
    ]);
    const one = await polar.customerPortal.customerMeters.get(security, { id: page.result.items[1]!.id });
    expect(one.meter.name).toBe('LLM completions');
  });

  it("system events (a meter credit's grant) pass the SDK's event union; credits show on the customer meter", async () => {
    const meter = await polar.meters.create({
      name: 'Credited calls',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'credited.call' }] },
      aggregation: { func: 'count' },
    });
    const credit = await typedBenefitFactory(server, acme.organization.id, 'meter_credit', {
      units: 25,
      rollover: false,
      meter_id: meter.id,
    });
    const purchase = await purchaseFactory(server, acme, [credit.id], { recurring: true });
    await waitForGrant(server, purchase.customerId, credit.id, (g) => g.granted_at !== null);
    await polar.events.ingest({ events: [{ name: 'credited.call', customerId: purchase.customerId }] });

    const system = await polar.events.list({ customerId: purchase.customerId, source: 'system' });
    const names = system.result.items.map((e) => e.name).sort();
    expect(names).toEqual(expect.arrayContaining(['benefit.granted', 'meter.credited']));
    const credited = system.result.items.find((e) => e.name === 'meter.credited')!;
    expect(credited.metadata).toMatchObject({ meterId: meter.id, units: 25, rollover: false });
    expect((await polar.events.get({ id: credited.id })).name).toBe('meter.credited');

    const [item] = (await polar.customerMeters.list({ customerId: purchase.customerId, meterId: meter.id })).result
      .items;
    expect(item).toMatchObject({ consumedUnits: 1, creditedUnits: 25, balance: 24 });
  });

  it('errors are typed: 404 ResourceNotFound, 422 HTTPValidationError', async () => {
    await expect(polar.meters.get({ id: crypto.randomUUID() })).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(polar.events.get({ id: crypto.randomUUID() })).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(polar.customerMeters.get({ id: crypto.randomUUID() })).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(
      polar.events.ingest({ events: [{ name: 'x', customerId: crypto.randomUUID() }] }),
    ).rejects.toBeInstanceOf(HTTPValidationError);
  });
});
