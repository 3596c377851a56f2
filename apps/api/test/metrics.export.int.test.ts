import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/platform/clock.js';
import { customerFactory } from './factories/customers.js';
import { orderFactory } from './factories/orders.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

/**
 * `GET /v1/metrics/export`: the periods `GET /v1/metrics/` computes, as CSV (a Timestamp column, then
 * one column per metric by display name), for the caller's organizations only.
 */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer({ clock: new ManualClock('2026-01-10T12:00:00.000Z') });
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
  const product = await productFactory(server, acme.organization.id);
  const customer = await customerFactory(server, acme.organization.id);
  await orderFactory(server, acme.organization.id, { product, customer });
  await orderFactory(server, acme.organization.id, { product, customer, subtotal_amount: 2500 });
  await orderFactory(server, other.organization.id, { subtotal_amount: 7000 });
});
afterAll(() => server?.stop());

const RANGE = 'start_date=2026-01-09&end_date=2026-01-11&interval=day';
const get = (url: string, token?: string) => server.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
const lines = (body: string) => body.split('\r\n').slice(0, -1);

describe('GET /v1/metrics/export', () => {
  it('writes one row per period with the values of GET /v1/metrics/', async () => {
    const response = await get(`/v1/metrics/export?${RANGE}`, acme.token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="metrics.csv"');
    const rows = lines(response.body);
    const metrics = json(await get(`/v1/metrics/?${RANGE}`, acme.token));
    const columns = Object.values(metrics.metrics) as { slug: string; display_name: string; type: string }[];
    expect(rows[0]).toBe(['Timestamp', ...columns.map((c) => c.display_name)].join(','));
    expect(rows[0]!.startsWith('Timestamp,Orders,Revenue,Cumulative Revenue,')).toBe(true);
    expect(rows).toHaveLength(4);
    metrics.periods.forEach((period: Record<string, number | string>, i: number) => {
      const cells = rows[i + 1]!.split(',');
      expect(cells[0]).toBe(String(period.timestamp).replace('.000Z', '+00:00'));
      columns.forEach((column, j) => {
        const value = period[column.slug] as number;
        expect(cells[j + 1], column.slug).toBe(
          column.type === 'percentage' && Number.isInteger(value) ? `${value}.0` : String(value),
        );
      });
    });
    // 10 January: the two orders, 10.00 and 25.00; the other organization's order is not counted.
    expect(rows[2]!.split(',').slice(0, 3)).toEqual(['2026-01-10T00:00:00+00:00', '2', '3500']);
  });

  it('writes only the metrics asked for, in the metrics order', async () => {
    const response = await get(`/v1/metrics/export?${RANGE}&metrics=revenue&metrics=orders&metrics=nope`, acme.token);
    expect(lines(response.body)).toEqual([
      'Timestamp,Orders,Revenue',
      '2026-01-09T00:00:00+00:00,0,0',
      '2026-01-10T00:00:00+00:00,2,3500',
      '2026-01-11T00:00:00+00:00,0,0',
    ]);
  });

  it("counts nothing of another organization's", async () => {
    const response = await get(
      `/v1/metrics/export?${RANGE}&metrics=orders&organization_id=${acme.organization.id}`,
      other.token,
    );
    expect(lines(response.body)[2]).toBe('2026-01-10T00:00:00+00:00,0');
  });

  it('needs a token (401) and metrics:read (403)', async () => {
    expect((await get(`/v1/metrics/export?${RANGE}`)).statusCode).toBe(401);
    const wrong = await tokenFactory(server, acme.organization.id, ['orders:read']);
    expect((await get(`/v1/metrics/export?${RANGE}`, wrong)).statusCode).toBe(403);
    const right = await tokenFactory(server, acme.organization.id, ['metrics:read']);
    expect((await get(`/v1/metrics/export?${RANGE}`, right)).statusCode).toBe(200);
  });

  it('answers 422 for a bad range, interval, zone or metrics list', async () => {
    const tooMany = Array.from({ length: 101 }, (_, i) => `metrics=m${i}`).join('&');
    for (const [query, field] of [
      ['end_date=2026-01-11&interval=day', 'start_date'],
      ['start_date=2026-01-09&end_date=2026-01-11&interval=fortnight', 'interval'],
      [`${RANGE}&timezone=Mars/Olympus`, 'timezone'],
      ['start_date=2026-01-09&end_date=2026-13-01&interval=day', 'end_date'],
      [`${RANGE}&${tooMany}`, 'metrics'],
      [`${RANGE}&metrics=a%00b`, 'metrics'],
      [`${RANGE}&metrics=${'x'.repeat(65)}`, 'metrics'],
      [`${RANGE}&organization_id=nope`, 'organization_id'],
    ]) {
      const response = await get(`/v1/metrics/export?${query}`, acme.token);
      expect(response.statusCode, query).toBe(422);
      expect(json(response).detail[0].loc.slice(0, 2), query).toEqual(['query', field]);
    }
    const long = await get('/v1/metrics/export?start_date=2020-01-01&end_date=2026-01-01&interval=hour', acme.token);
    expect(long.statusCode).toBe(422);
  });
});
