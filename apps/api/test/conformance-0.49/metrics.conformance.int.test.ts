import { Polar } from '@polar-sh/sdk-0.49';
import { RFCDate } from '@polar-sh/sdk-0.49/types/rfcdate.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/platform/clock.js';
import { orderFactory } from '../factories/orders.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { startTestServer, type TestServer } from '../harness.js';
import { withZodIssues } from './issues.js';

/** `metrics.export` through `@polar-sh/sdk@0.49`: the SDK asks for `text/csv` and reads the body as text. */
let server: TestServer;
let acme: OrganizationFixture;
let polar: Polar;

beforeAll(async () => {
  server = await startTestServer({ listen: true, clock: systemClock });
  acme = await organizationFactory(server, { name: 'Acme' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
  await orderFactory(server, acme.organization.id);
});
afterAll(() => server?.stop());

describe('metrics through @polar-sh/sdk@0.49', () => {
  it('metrics.export answers the periods as CSV', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const body = await withZodIssues(() =>
      polar.metrics.export({
        startDate: new RFCDate(today),
        endDate: new RFCDate(today),
        timezone: 'UTC',
        interval: 'day',
        metrics: ['orders', 'revenue'],
      }),
    );
    expect(body.split('\r\n')).toEqual(['Timestamp,Orders,Revenue', `${today}T00:00:00+00:00,1,1000`, '']);
  });
});
