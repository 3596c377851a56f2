import { Polar } from '@polar-sh/sdk';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { RefundAmountTooHigh } from '@polar-sh/sdk/models/errors/refundamounttoohigh.js';
import { RefundedAlready } from '@polar-sh/sdk/models/errors/refundedalready.js';
import { SDKValidationError } from '@polar-sh/sdk/models/errors/sdkvalidationerror.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../../src/platform/clock.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { paidOrderFactory } from '../factories/refunds.js';
import { startTestServer, type TestServer } from '../harness.js';

let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;
let polar: Polar;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
});
afterAll(() => server?.stop());

describe('refunds through @polar-sh/sdk', () => {
  it('creates refunds in parts with their tax, then refuses what is left and what is not there', async () => {
    const { orderId, customerId } = await paidOrderFactory(server, acme, { tax: 200 });
    const first = await polar.refunds.create({
      orderId,
      reason: 'customer_request',
      amount: 250,
      comment: 'Partial',
      metadata: { ticket: 'T-9', priority: 2, urgent: true },
    });
    expect(first).toMatchObject({
      status: 'succeeded',
      reason: 'customer_request',
      amount: 250,
      taxAmount: 50,
      currency: 'usd',
      orderId,
      customerId,
      subscriptionId: null,
      organizationId: acme.organization.id,
      revokeBenefits: false,
      metadata: { ticket: 'T-9', priority: 2, urgent: true },
    });
    expect(first!.createdAt).toBeInstanceOf(Date);

    await expect(polar.refunds.create({ orderId, reason: 'other', amount: 751 })).rejects.toBeInstanceOf(
      RefundAmountTooHigh,
    );
    const rest = await polar.refunds.create({ orderId, reason: 'duplicate', amount: 750 });
    expect(rest).toMatchObject({ status: 'succeeded', amount: 750, taxAmount: 150 });
    const order = await polar.orders.get({ id: orderId });
    expect(order).toMatchObject({ status: 'refunded', refundedAmount: 1000, refundedTaxAmount: 200 });
    await expect(polar.refunds.create({ orderId, reason: 'other', amount: 1 })).rejects.toBeInstanceOf(RefundedAlready);

    // Another organization's order, or a zero amount: 422 in the shape the SDK reads.
    const foreign = await paidOrderFactory(server, other);
    await expect(
      polar.refunds.create({ orderId: foreign.orderId, reason: 'other', amount: 100 }),
    ).rejects.toBeInstanceOf(HTTPValidationError);
    await expect(polar.refunds.create({ orderId, reason: 'other', amount: 0 })).rejects.toBeInstanceOf(
      HTTPValidationError,
    );
  });

  it('lists with every filter and sorting over several pages', async () => {
    const a = await paidOrderFactory(server, acme);
    const b = await paidOrderFactory(server, acme, { recurring: true });
    const ids: string[] = [];
    for (const [orderId, amount] of [
      [a.orderId, 300],
      [a.orderId, 100],
      [b.orderId, 200],
    ] as const) {
      (server.clock as ManualClock).advance(1000);
      ids.push((await polar.refunds.create({ orderId, reason: 'other', amount }))!.id);
    }

    const seen: string[] = [];
    let pages = 0;
    for await (const page of await polar.refunds.list({
      orderId: [a.orderId, b.orderId],
      limit: 2,
      sorting: ['created_at'],
    })) {
      pages++;
      seen.push(...page.result.items.map((refund) => refund.id));
    }
    expect(pages).toBe(2);
    expect(seen).toEqual(ids);

    // The SDK of the spec's era knows no RevokeSubscriptionBenefitsProhibited: it reads the 400 as a
    // RefundAmountTooHigh, whose literal `error` fails its validation; the body still names the error.
    const prohibited = await polar.refunds
      .create({ orderId: b.orderId, reason: 'other', amount: 1, revokeBenefits: true })
      .catch((error: unknown) => error);
    expect(prohibited).toBeInstanceOf(SDKValidationError);
    expect(JSON.stringify((prohibited as SDKValidationError).rawValue)).toContain(
      'Subscription benefits can only be revoked upon cancellation',
    );

    const byAmount = await polar.refunds.list({ orderId: [a.orderId, b.orderId], sorting: ['-amount'] });
    expect(byAmount.result.items.map((refund) => refund.amount)).toEqual([300, 200, 100]);
    const bySubscription = await polar.refunds.list({ subscriptionId: b.subscriptionId!, succeeded: true });
    expect(bySubscription.result.items.map((refund) => refund.id)).toEqual([ids[2]]);
    const filtered = await polar.refunds.list({
      id: [ids[0]!, ids[2]!],
      organizationId: acme.organization.id,
      customerId: a.customerId,
      succeeded: false,
    });
    expect(filtered.result.items.map((refund) => refund.id)).toEqual([ids[0]]);
  });
});
