import { Polar } from '@polar-sh/sdk-0.49';
import { DisputeNotOpenError } from '@polar-sh/sdk-0.49/models/errors/disputenotopenerror.js';
import { ResourceNotFound } from '@polar-sh/sdk-0.49/models/errors/resourcenotfound.js';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/platform/clock.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { paidOrderFactory } from '../factories/refunds.js';
import { bearer, json, startTestServer, type TestServer } from '../harness.js';
import { withZodIssues } from './issues.js';

/** Disputes through `@polar-sh/sdk@0.49`: responses validated by the SDK, one assertion each. */
let server: TestServer;
let acme: OrganizationFixture;
let polar: Polar;

beforeAll(async () => {
  server = await startTestServer({ listen: true, clock: systemClock });
  acme = await organizationFactory(server, { name: 'Acme' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
});
afterAll(() => server?.stop());

async function open(status = 'needs_response') {
  const purchase = await paidOrderFactory(server, acme, { tax: 100 });
  const response = await server.inject({
    method: 'POST',
    url: '/v1/disputes/simulate',
    headers: bearer(acme.token),
    payload: { order_id: purchase.orderId, status },
  });
  return json(response) as { id: string; order_id: string };
}

describe('disputes through @polar-sh/sdk@0.49', () => {
  it('disputes.list filters by order and status', async () => {
    const dispute = await open();
    const page = await withZodIssues(() =>
      polar.disputes.list({ orderId: dispute.order_id, status: 'needs_response' }),
    );
    expect(page.result.items.map((d) => d.id)).toEqual([dispute.id]);
  });

  it('disputes.get answers the amounts split as the order', async () => {
    const dispute = await open();
    const got = await withZodIssues(() => polar.disputes.get({ id: dispute.id }));
    expect({ amount: got.amount, taxAmount: got.taxAmount, closed: got.closed }).toEqual({
      amount: 1000,
      taxAmount: 100,
      closed: false,
    });
    await expect(polar.disputes.get({ id: randomUUID() })).rejects.toBeInstanceOf(ResourceNotFound);
  });

  it('disputes.accept concedes it (lost); an early warning is DisputeNotOpenError', async () => {
    const dispute = await open();
    const accepted = await withZodIssues(() => polar.disputes.accept({ id: dispute.id }));
    expect(accepted.status).toBe('lost');
    const warning = await open('early_warning');
    await expect(polar.disputes.accept({ id: warning.id })).rejects.toBeInstanceOf(DisputeNotOpenError);
  });
});
