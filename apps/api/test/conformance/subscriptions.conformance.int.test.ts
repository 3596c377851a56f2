import { Polar } from '@polar-sh/sdk';
import { AlreadyCanceledSubscription } from '@polar-sh/sdk/models/errors/alreadycanceledsubscription.js';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discountFactory } from '../factories/discounts.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { productFactory } from '../factories/products.js';
import { subscriptionFactory } from '../factories/subscriptions.js';
import { startTestServer, type TestServer } from '../harness.js';

let server: TestServer;
let acme: OrganizationFixture;
let polar: Polar;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  acme = await organizationFactory(server, { name: 'Acme' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
});
afterAll(() => server?.stop());

describe('subscriptions through @polar-sh/sdk', () => {
  it('lists with the page iterator, filters, gets and exports', async () => {
    const created = [];
    for (let i = 0; i < 3; i += 1) created.push(await subscriptionFactory(server, acme.organization.id));
    const ids: string[] = [];
    for await (const page of await polar.subscriptions.list({ limit: 2, sorting: ['started_at'] })) {
      ids.push(...page.result.items.map((item) => item.id));
    }
    // One start time for all (the test clock stands still): ties fall back to the id.
    expect(ids).toEqual(created.map((s) => s.id).sort());
    const filtered = await polar.subscriptions.list({ customerId: created[1]!.customer_id, active: true });
    expect(filtered.result.items.map((s) => s.id)).toEqual([created[1]!.id]);
    const one = await polar.subscriptions.get({ id: created[0]!.id });
    expect(one).toMatchObject({ id: created[0]!.id, status: 'active', amount: 1000, recurringInterval: 'month' });
    const csv = await polar.subscriptions.export({ organizationId: acme.organization.id });
    expect(String(csv).split('\r\n')[0]).toBe('Email,Created At,Active,Product,Price,Currency,Interval');
    await expect(polar.subscriptions.get({ id: '00000000-0000-4000-8000-000000000000' })).rejects.toBeInstanceOf(
      ResourceNotFound,
    );
  });

  it('updates with every variant and revokes', async () => {
    const subscription = await subscriptionFactory(server, acme.organization.id);
    const canceled = await polar.subscriptions.update({
      id: subscription.id,
      subscriptionUpdate: { cancelAtPeriodEnd: true, customerCancellationReason: 'too_expensive' },
    });
    expect(canceled).toMatchObject({ cancelAtPeriodEnd: true, customerCancellationReason: 'too_expensive' });
    await expect(
      polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { cancelAtPeriodEnd: true } }),
    ).rejects.toBeInstanceOf(AlreadyCanceledSubscription);
    const uncanceled = await polar.subscriptions.update({
      id: subscription.id,
      subscriptionUpdate: { cancelAtPeriodEnd: false },
    });
    expect(uncanceled.cancelAtPeriodEnd).toBe(false);

    const discount = await discountFactory(server, acme.organization.id, {
      type: 'percentage',
      basis_points: 1000,
      duration: 'forever',
    });
    const discounted = await polar.subscriptions.update({
      id: subscription.id,
      subscriptionUpdate: { discountId: discount.id },
    });
    expect(discounted).toMatchObject({ discountId: discount.id, amount: 900 });
    const cleared = await polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { discountId: null } });
    expect(cleared.discountId).toBeNull();

    const { product } = await productFactory(server, acme.organization.id, {
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 2500 }],
    });
    const upgraded = await polar.subscriptions.update({
      id: subscription.id,
      subscriptionUpdate: { productId: product.id, prorationBehavior: 'prorate' },
    });
    expect(upgraded).toMatchObject({ productId: product.id, amount: 2500 });
    await expect(
      polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { productId: 'not-a-uuid' } }),
    ).rejects.toBeInstanceOf(HTTPValidationError);

    const revoked = await polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { revoke: true } });
    expect(revoked.status).toBe('canceled');
    await expect(polar.subscriptions.revoke({ id: subscription.id })).rejects.toBeInstanceOf(
      AlreadyCanceledSubscription,
    );
    const other = await subscriptionFactory(server, acme.organization.id);
    expect((await polar.subscriptions.revoke({ id: other.id })).status).toBe('canceled');
  });
});
