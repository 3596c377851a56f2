import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { typedBenefitFactory } from './factories/benefit-grants.js';
import { paidOrderFactory, type PaidOrderOptions } from './factories/refunds.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';
import { installProcessorGuard, type ProcessorGuard } from './support/processor-guard.js';

/**
 * Disputes through HTTP: opened as the simulated processor reports one (POST /v1/disputes/simulate, the
 * same recording as Stripe's charge.dispute.* events), listed, read, and accepted (conceded: closed with
 * the processor, lost), once. The order keeps its amounts, as the reference.
 */
let server: TestServer;
let guard: ProcessorGuard;
let acme: OrganizationFixture;
let other: OrganizationFixture;

beforeAll(async () => {
  guard = installProcessorGuard();
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
});
afterAll(async () => {
  await server?.stop();
  guard?.uninstall();
});
afterEach(() => expect(guard.violations).toEqual([]));

const api = (method: 'GET' | 'POST', url: string, token: string | null = acme.token, payload?: object) =>
  server.inject({ method, url, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });

async function open(org: OrganizationFixture, options: PaidOrderOptions & { amount?: number; status?: string } = {}) {
  const purchase = await paidOrderFactory(server, org, options);
  const response = await api('POST', '/v1/disputes/simulate', org.token, {
    order_id: purchase.orderId,
    ...(options.amount ? { amount: options.amount } : {}),
    ...(options.status ? { status: options.status } : {}),
  });
  expect(response.statusCode).toBe(201);
  return { purchase, dispute: json(response) };
}

describe('auth matrix', () => {
  it('answers 401 without a token, 403 without the disputes scopes, 404 for another organization', async () => {
    const { dispute } = await open(acme);
    const foreign = (await open(other)).dispute;
    const ordersOnly = await tokenFactory(server, acme.organization.id, ['orders:read']);
    const readOnly = await tokenFactory(server, acme.organization.id, ['disputes:read']);
    for (const [method, url] of [
      ['GET', '/v1/disputes/'],
      ['GET', `/v1/disputes/${dispute.id}`],
      ['POST', `/v1/disputes/${dispute.id}/accept`],
    ] as const) {
      expect((await api(method, url, null)).statusCode).toBe(401);
      const denied = await api(method, url, ordersOnly);
      expect(denied.statusCode).toBe(403);
      expect(json(denied).error).toBe('insufficient_scope');
    }
    // Accepting writes: the read scope is not enough.
    expect((await api('POST', `/v1/disputes/${dispute.id}/accept`, readOnly)).statusCode).toBe(403);
    expect(json(await api('GET', `/v1/disputes/${dispute.id}`, readOnly)).id).toBe(dispute.id);
    for (const id of [foreign.id, randomUUID()]) {
      for (const method of ['GET', 'POST'] as const) {
        const response = await api(method, `/v1/disputes/${id}${method === 'POST' ? '/accept' : ''}`);
        expect(response.statusCode).toBe(404);
        expect(json(response)).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
      }
    }
    expect(json(await api('GET', `/v1/disputes/${foreign.id}`, other.token)).status).toBe('needs_response');
    const listed = json(await api('GET', '/v1/disputes/?limit=100')).items.map((d: { id: string }) => d.id);
    expect(listed).toContain(dispute.id);
    expect(listed).not.toContain(foreign.id);
  });

  it('answers 422 in the API shape for a bad id, query or body', async () => {
    expect(json(await api('GET', '/v1/disputes/not-a-uuid')).detail[0].loc).toEqual(['path', 'id']);
    expect((await api('POST', '/v1/disputes/not-a-uuid/accept')).statusCode).toBe(422);
    for (const query of ['status=bogus', 'order_id=nope', 'limit=0', 'page=0', 'sorting=reason']) {
      const response = await api('GET', `/v1/disputes/?${query}`);
      expect(response.statusCode, query).toBe(422);
      expect(json(response).detail[0].loc[0]).toBe('query');
    }
    for (const body of [
      {},
      { order_id: 'x' },
      { order_id: randomUUID(), amount: 0 },
      { order_id: randomUUID(), status: 'won' },
    ]) {
      const response = await api('POST', '/v1/disputes/simulate', acme.token, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(json(response).detail[0].loc[0]).toBe('body');
    }
    const foreignOrder = await paidOrderFactory(server, other);
    expect(
      (await api('POST', '/v1/disputes/simulate', acme.token, { order_id: foreignOrder.orderId })).statusCode,
    ).toBe(404);
  });
});

describe('recording', () => {
  it("splits the disputed total into amount and tax as the order's, with the deadline and the customer", async () => {
    const { purchase, dispute } = await open(acme, { tax: 250 });
    expect(dispute).toMatchObject({
      status: 'needs_response',
      resolved: false,
      closed: false,
      amount: 1000,
      tax_amount: 250,
      currency: 'usd',
      reason: 'fraudulent',
      past_due: false,
      order_id: purchase.orderId,
      case_id: null,
    });
    expect(dispute.customer.id).toBe(purchase.customerId);
    const payment = json(await api('GET', `/v1/payments/?order_id=${purchase.orderId}`)).items[0];
    expect(dispute.payment_id).toBe(payment.id);
    expect(new Date(dispute.evidence_due_by).getTime() - new Date(dispute.created_at).getTime()).toBe(
      7 * 24 * 3600_000,
    );

    const partial = (await open(acme, { tax: 250, amount: 625 })).dispute;
    expect(partial).toMatchObject({ amount: 500, tax_amount: 125 });
  });

  it('lists by order and status, sorted by amount, paged', async () => {
    const org = await organizationFactory(server);
    const small = (await open(org, { amount: 300 })).dispute;
    const large = (await open(org, { amount: 900 })).dispute;
    const warning = (await open(org, { amount: 600, status: 'early_warning' })).dispute;
    const get = async (query: string) => json(await api('GET', `/v1/disputes/?${query}`, org.token));
    const ids = (page: { items: { id: string }[] }) => page.items.map((d) => d.id);
    expect(ids(await get('sorting=amount'))).toEqual([small.id, warning.id, large.id]);
    expect(ids(await get('sorting=-amount'))).toEqual([large.id, warning.id, small.id]);
    expect(ids(await get('status=early_warning'))).toEqual([warning.id]);
    expect(ids(await get(`order_id=${large.order_id}&order_id=${small.order_id}&sorting=amount`))).toEqual([
      small.id,
      large.id,
    ]);
    const page = await get('limit=2&page=2&sorting=amount');
    expect(ids(page)).toEqual([large.id]);
    expect(page.pagination).toEqual({ total_count: 3, max_page: 2 });
  });
});

describe('accepting', () => {
  it('concedes the chargeback: lost, closed and resolved; the order keeps its amounts; again answers it as it is', async () => {
    const { purchase, dispute } = await open(acme, { tax: 250 });
    const accepted = await api('POST', `/v1/disputes/${dispute.id}/accept`);
    expect(accepted.statusCode).toBe(200);
    expect(json(accepted)).toMatchObject({
      id: dispute.id,
      status: 'lost',
      resolved: true,
      closed: true,
      amount: 1000,
      tax_amount: 250,
    });
    const row = await server.runtime.database.db
      .selectFrom('order_disputes')
      .selectAll()
      .where('id', '=', dispute.id)
      .executeTakeFirstOrThrow();
    expect(row.accepted_at).not.toBeNull();
    expect(json(await api('GET', `/v1/orders/${purchase.orderId}`))).toMatchObject({
      status: 'paid',
      total_amount: 1250,
      refunded_amount: 0,
    });
    const again = await api('POST', `/v1/disputes/${dispute.id}/accept`);
    expect(again.statusCode).toBe(200);
    expect(json(again)).toEqual(json(accepted));
    expect(
      json(await api('GET', '/v1/disputes/?status=lost&limit=100')).items.map((d: { id: string }) => d.id),
    ).toContain(dispute.id);
  });

  it('refuses a dispute not awaiting a response with DisputeNotOpenError, and changes nothing', async () => {
    const { dispute } = await open(acme, { status: 'early_warning' });
    const refused = await api('POST', `/v1/disputes/${dispute.id}/accept`);
    expect(refused.statusCode).toBe(409);
    expect(json(refused)).toEqual({
      error: 'DisputeNotOpenError',
      detail: `Dispute ${dispute.id} is not awaiting a response.`,
    });
    expect(json(await api('GET', `/v1/disputes/${dispute.id}`)).status).toBe('early_warning');
  });

  it("ends the order's subscription when lost, as the reference", async () => {
    const { purchase, dispute } = await open(acme, { recurring: true });
    expect((await api('POST', `/v1/disputes/${dispute.id}/accept`)).statusCode).toBe(200);
    const subscription = json(await api('GET', `/v1/subscriptions/${purchase.subscriptionId}`));
    expect(subscription.status).toBe('canceled');
    expect(subscription.ended_at).not.toBeNull();
  });

  it("revokes a one-time order's benefits when lost", async () => {
    const benefit = await typedBenefitFactory(server, acme.organization.id, 'custom');
    const { purchase, dispute } = await open(acme, { benefitIds: [benefit.id] });
    const grant = async () =>
      (await server.runtime.database.db
        .selectFrom('benefit_grants')
        .selectAll()
        .where('order_id', '=', purchase.orderId)
        .executeTakeFirst()) as { granted_at: Date | null; revoked_at: Date | null } | undefined;
    const until = async (done: (row: Awaited<ReturnType<typeof grant>>) => boolean) => {
      for (let i = 0; i < 150 && !done(await grant()); i++) await new Promise((r) => setTimeout(r, 100));
      return grant();
    };
    expect((await until((row) => !!row?.granted_at))?.granted_at).not.toBeNull();
    expect((await api('POST', `/v1/disputes/${dispute.id}/accept`)).statusCode).toBe(200);
    expect((await until((row) => !!row?.revoked_at))?.revoked_at).toBeInstanceOf(Date);
  });
});
