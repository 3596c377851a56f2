import { Polar } from '@polar-sh/sdk';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../../src/platform/clock.js';
import { orderFactory } from '../factories/orders.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { paymentFactory } from '../factories/payments.js';
import { startTestServer, type TestServer } from '../harness.js';

let server: TestServer;
let acme: OrganizationFixture;
let polar: Polar;
const orderIds: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  acme = await organizationFactory(server, { name: 'Acme' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
  orderIds.push((await orderFactory(server, acme.organization.id)).id);
});
afterAll(() => server?.stop());

describe('payments through @polar-sh/sdk', () => {
  it('lists over several pages and gets card and generic payments', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      (server.clock as ManualClock).advance(1000);
      ids.push((await paymentFactory(server, acme.organization.id, { amount: 100 * (i + 1) })).id);
    }
    (server.clock as ManualClock).advance(1000);
    const failed = await paymentFactory(server, acme.organization.id, {
      order_id: orderIds[0]!,
      checkout_id: null,
      status: 'failed',
      decline_reason: 'card_declined',
      decline_message: 'Your card was declined.',
    });
    ids.push(failed.id);
    (server.clock as ManualClock).advance(1000);
    ids.push((await paymentFactory(server, acme.organization.id, { method: 'bank_transfer', card: null })).id);

    const seen: string[] = [];
    let pages = 0;
    for await (const page of await polar.payments.list({ limit: 2, sorting: ['created_at'] })) {
      pages++;
      seen.push(...page.result.items.map((payment) => payment.id));
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);

    const card = await polar.payments.get({ id: ids[0]! });
    expect(card).toMatchObject({ processor: 'stripe', status: 'succeeded', method: 'card', amount: 100 });
    expect('methodMetadata' in card && card.methodMetadata).toEqual({ brand: 'visa', last4: '4242' });
    const declined = await polar.payments.get({ id: failed.id });
    expect(declined).toMatchObject({
      status: 'failed',
      declineReason: 'card_declined',
      declineMessage: 'Your card was declined.',
      orderId: orderIds[0],
      checkoutId: null,
    });
    expect((await polar.payments.get({ id: ids[4]! })).method).toBe('bank_transfer');
    const filtered = await polar.payments.list({ status: ['failed'], orderId: orderIds[0]! });
    expect(filtered.result.items.map((payment) => payment.id)).toEqual([failed.id]);
    await expect(polar.payments.get({ id: '00000000-0000-4000-8000-000000000000' })).rejects.toBeInstanceOf(
      ResourceNotFound,
    );
  });
});
