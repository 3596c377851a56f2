import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cycleGrantsForSubscription,
  enqueueGrantsForPurchase,
  enqueueRevocationsForOrder,
  enqueueRevocationsForSubscription,
} from '../src/modules/benefit-grants/benefit-grants.service.js';
import type { BenefitGrantRow } from '../src/modules/benefits/benefits.repository.js';
import type { ManualClock } from '../src/platform/clock.js';
import { inTransaction, purchaseFactory, typedBenefitFactory, waitForGrant } from './factories/benefit-grants.js';
import { grantFactory } from './factories/benefits.js';
import { customerFactory } from './factories/customers.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { userFactory } from './factories/users.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
let acme: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
});
afterAll(() => server?.stop());

const db = () => server.runtime.database.db;
const granted = (g: { granted_at: Date | null }) => g.granted_at !== null;
const revoked = (g: { revoked_at: Date | null }) => g.revoked_at !== null;

async function webhookData(type: string): Promise<any[]> {
  const rows = await db().selectFrom('webhook_events').select('payload').where('type', '=', type).execute();
  return rows.map((row) => (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload).data);
}

async function systemEvents(customerId: string, name: string) {
  const rows = await db()
    .selectFrom('events')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('name', '=', name)
    .orderBy('ingested_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => row.metadata as Record<string, unknown>);
}

async function state(customerId: string) {
  const response = await server.inject({
    method: 'GET',
    url: `/v1/customers/${customerId}/state`,
    headers: bearer(acme.token),
  });
  expect(response.statusCode).toBe(200);
  return json(response);
}

describe('one-time purchase: grant and revoke per type', () => {
  it('custom: granted, the note is in the customer state; a refund revokes it', async () => {
    const benefit = await typedBenefitFactory(server, acme.organization.id, 'custom');
    const purchase = await purchaseFactory(server, acme, [benefit.id]);
    const grant = await waitForGrant(server, purchase.customerId, benefit.id, granted);
    expect(grant).toMatchObject({ order_id: purchase.orderId, subscription_id: null, error: null, properties: {} });
    const current = await state(purchase.customerId);
    expect(current.granted_benefits).toEqual([
      expect.objectContaining({ id: grant.id, benefit_type: 'custom', properties: { note: 'Welcome aboard' } }),
    ]);
    const created = (await webhookData('benefit_grant.created')).find((d) => d.id === grant.id);
    expect(created).toMatchObject({
      is_granted: true,
      benefit: { id: benefit.id },
      customer: { id: purchase.customerId },
    });
    expect(
      (await webhookData('customer.state_changed')).some((d) =>
        d.granted_benefits?.some((g: any) => g.id === grant.id),
      ),
    ).toBe(true);
    expect(await systemEvents(purchase.customerId, 'benefit.granted')).toEqual([
      { benefit_id: benefit.id, benefit_grant_id: grant.id, benefit_type: 'custom' },
    ]);

    await inTransaction(server, (ctx) => enqueueRevocationsForOrder(ctx, purchase.orderId));
    const gone = await waitForGrant(server, purchase.customerId, benefit.id, revoked);
    expect(gone.granted_at).toBeNull();
    expect((await webhookData('benefit_grant.revoked')).some((d) => d.id === grant.id && d.is_revoked)).toBe(true);
    expect((await state(purchase.customerId)).granted_benefits).toEqual([]);
  });

  it('license_keys: a key with the prefix, expiry and limits; revoking disables it', async () => {
    const benefit = await typedBenefitFactory(server, acme.organization.id, 'license_keys');
    const purchase = await purchaseFactory(server, acme, [benefit.id]);
    const grant = await waitForGrant(server, purchase.customerId, benefit.id, granted);
    const properties = grant.properties as { license_key_id: string; display_key: string };
    const key = await db()
      .selectFrom('license_keys')
      .selectAll()
      .where('id', '=', properties.license_key_id)
      .executeTakeFirstOrThrow();
    expect(key.key).toMatch(/^ACME-[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
    expect(properties.display_key).toBe(`****-${key.key.slice(-6)}`);
    expect(key).toMatchObject({
      status: 'granted',
      customer_id: purchase.customerId,
      benefit_id: benefit.id,
      limit_activations: 3,
      limit_usage: 10,
      usage: 0,
    });
    expect(key.expires_at!.toISOString()).toBe('2027-01-15T12:00:00.000Z');

    await inTransaction(server, (ctx) => enqueueRevocationsForOrder(ctx, purchase.orderId));
    const gone = await waitForGrant(server, purchase.customerId, benefit.id, revoked);
    expect(gone.properties).toEqual(properties);
    const after = await db()
      .selectFrom('license_keys')
      .select('status')
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(after.status).toBe('revoked');
  });

  it('downloadables: the grant lists the files that exist (none yet)', async () => {
    const benefit = await typedBenefitFactory(server, acme.organization.id, 'downloadables');
    const purchase = await purchaseFactory(server, acme, [benefit.id]);
    const grant = await waitForGrant(server, purchase.customerId, benefit.id, granted);
    expect(grant.properties).toEqual({ files: [] });
    await inTransaction(server, (ctx) => enqueueRevocationsForOrder(ctx, purchase.orderId));
    await waitForGrant(server, purchase.customerId, benefit.id, revoked);
  });

  it('meter_credit: meter.credited on grant, the opposite on revoke', async () => {
    const benefit = await typedBenefitFactory(server, acme.organization.id, 'meter_credit');
    const meterId = (benefit.properties as { meter_id: string }).meter_id;
    const purchase = await purchaseFactory(server, acme, [benefit.id]);
    const grant = await waitForGrant(server, purchase.customerId, benefit.id, granted);
    // The credit's instant, on the usage clock (the database's) its meter's resets are stamped with.
    const credited = await server.runtime.database.db
      .selectFrom('events')
      .select('ingested_at')
      .where('customer_id', '=', purchase.customerId)
      .where('name', '=', 'meter.credited')
      .executeTakeFirstOrThrow();
    expect(grant.properties).toEqual({
      last_credited_meter_id: meterId,
      last_credited_units: 100,
      last_credited_at: credited.ingested_at.toISOString(),
    });
    expect(await systemEvents(purchase.customerId, 'meter.credited')).toEqual([
      { meter_id: meterId, units: 100, rollover: false },
    ]);
    await inTransaction(server, (ctx) => enqueueRevocationsForOrder(ctx, purchase.orderId));
    await waitForGrant(server, purchase.customerId, benefit.id, revoked);
    const credits = await systemEvents(purchase.customerId, 'meter.credited');
    expect(credits.sort((a, b) => (b.units as number) - (a.units as number))).toEqual([
      { meter_id: meterId, units: 100, rollover: false },
      { meter_id: meterId, units: -100, rollover: false },
    ]);
  });

  it('discord and github_repository without credentials: the grant waits with a clear error', async () => {
    const discord = await typedBenefitFactory(server, acme.organization.id, 'discord');
    const github = await typedBenefitFactory(server, acme.organization.id, 'github_repository');
    const purchase = await purchaseFactory(server, acme, [discord.id, github.id]);
    const d = await waitForGrant(server, purchase.customerId, discord.id, (g) => g.error !== null);
    const g = await waitForGrant(server, purchase.customerId, github.id, (g) => g.error !== null);
    expect(d.granted_at).toBeNull();
    expect(d.error).toEqual({
      message: 'Discord is not configured on this server: set DISCORD_BOT_TOKEN.',
      type: 'BenefitActionRequiredError',
      timestamp: '2026-01-15T12:00:00.000Z',
    });
    expect(g.granted_at).toBeNull();
    expect(g.error).toMatchObject({ message: 'GitHub is not configured on this server: set GITHUB_TOKEN.' });
    const created = (await webhookData('benefit_grant.created')).find((x) => x.id === d.id);
    expect(created).toMatchObject({ is_granted: false, error: { type: 'BenefitActionRequiredError' } });
    await inTransaction(server, (ctx) => enqueueRevocationsForOrder(ctx, purchase.orderId));
    await waitForGrant(server, purchase.customerId, discord.id, revoked);
    await waitForGrant(server, purchase.customerId, github.id, revoked);
  });

  it('granting twice is harmless: one grant, one key, one created event', async () => {
    const benefit = await typedBenefitFactory(server, acme.organization.id, 'license_keys');
    const purchase = await purchaseFactory(server, acme, [benefit.id]);
    const grant = await waitForGrant(server, purchase.customerId, benefit.id, granted);
    await inTransaction(server, async (ctx) => {
      await enqueueGrantsForPurchase(ctx, { ...purchase, subscriptionId: null });
      await enqueueGrantsForPurchase(ctx, { ...purchase, subscriptionId: null });
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const grants = await db().selectFrom('benefit_grants').selectAll().where('benefit_id', '=', benefit.id).execute();
    expect(grants).toHaveLength(1);
    const keys = await db().selectFrom('license_keys').select('id').where('benefit_id', '=', benefit.id).execute();
    expect(keys).toHaveLength(1);
    expect((await webhookData('benefit_grant.created')).filter((d) => d.id === grant.id)).toHaveLength(1);
  });
});

describe('subscriptions', () => {
  it('grants on start, cycles on renewal, revokes when it ends; the state lists the subscription', async () => {
    const keys = await typedBenefitFactory(server, acme.organization.id, 'license_keys');
    const credit = await typedBenefitFactory(server, acme.organization.id, 'meter_credit');
    const meterId = (credit.properties as { meter_id: string }).meter_id;
    const purchase = await purchaseFactory(server, acme, [keys.id, credit.id], { recurring: true });
    expect(purchase.subscriptionId).toBeTruthy();
    const keyGrant = await waitForGrant(server, purchase.customerId, keys.id, granted);
    const creditGrant = await waitForGrant(server, purchase.customerId, credit.id, granted);
    expect(keyGrant).toMatchObject({ subscription_id: purchase.subscriptionId, order_id: null });
    const current = await state(purchase.customerId);
    expect(current.active_subscriptions).toEqual([
      expect.objectContaining({ id: purchase.subscriptionId, status: 'active', product_id: purchase.productId }),
    ]);
    expect(current.granted_benefits.map((g: any) => g.benefit_id).sort()).toEqual([keys.id, credit.id].sort());

    (server.clock as ManualClock).advance(3_600_000);
    const before = (creditGrant.properties as { last_credited_at: string }).last_credited_at;
    await inTransaction(server, (ctx) => cycleGrantsForSubscription(ctx, purchase.subscriptionId!));
    await waitForGrant(
      server,
      purchase.customerId,
      credit.id,
      (g) => (g.properties as { last_credited_at: string }).last_credited_at !== before,
    );
    const names = (
      await db()
        .selectFrom('events')
        .select('name')
        .where('customer_id', '=', purchase.customerId)
        .orderBy('ingested_at')
        .orderBy('id')
        .execute()
    ).map((e) => e.name);
    expect(names.filter((n) => n === 'meter.credited')).toHaveLength(2);
    expect(names).toContain('meter.reset');
    expect(await systemEvents(purchase.customerId, 'meter.reset')).toEqual([{ meter_id: meterId }]);
    await expect
      .poll(async () =>
        (await webhookData('benefit_grant.cycled'))
          .filter((d) => d.subscription_id === purchase.subscriptionId)
          .map((d) => d.benefit_id)
          .sort(),
      )
      .toEqual([keys.id, credit.id].sort());
    await inTransaction(server, (ctx) => enqueueRevocationsForSubscription(ctx, purchase.subscriptionId!));
    await waitForGrant(server, purchase.customerId, keys.id, revoked);
    await waitForGrant(server, purchase.customerId, credit.id, revoked);
    const key = await db()
      .selectFrom('license_keys')
      .select('status')
      .where('id', '=', (keyGrant.properties as { license_key_id: string }).license_key_id)
      .executeTakeFirstOrThrow();
    expect(key.status).toBe('revoked');
    expect((await state(purchase.customerId)).granted_benefits).toEqual([]);
  });
});

describe('deletions revoke', () => {
  it('deleting a benefit revokes every granted grant of it (its license keys stop validating)', async () => {
    const keys = await typedBenefitFactory(server, acme.organization.id, 'license_keys');
    const first = await purchaseFactory(server, acme, [keys.id]);
    const second = await purchaseFactory(server, acme, [keys.id], { recurring: true });
    const grants = [
      await waitForGrant(server, first.customerId, keys.id, granted),
      await waitForGrant(server, second.customerId, keys.id, granted),
    ];
    const deleted = await server.inject({
      method: 'DELETE',
      url: `/v1/benefits/${keys.id}`,
      headers: bearer(acme.token),
    });
    expect(deleted.statusCode).toBe(204);
    await waitForGrant(server, first.customerId, keys.id, revoked);
    await waitForGrant(server, second.customerId, keys.id, revoked);
    const statuses = await db().selectFrom('license_keys').select('status').where('benefit_id', '=', keys.id).execute();
    expect(statuses.map((k) => k.status)).toEqual(['revoked', 'revoked']);
    const events = await webhookData('benefit_grant.revoked');
    for (const grant of grants) expect(events.some((d) => d.id === grant.id && d.is_revoked)).toBe(true);
    // The subscription itself goes on (only the benefit is gone).
    const subscription = await server.inject({
      method: 'GET',
      url: `/v1/subscriptions/${second.subscriptionId}`,
      headers: bearer(acme.token),
    });
    expect(json(subscription).status).toBe('active');
  });

  it('deleting a customer ends their subscriptions and revokes all their grants', async () => {
    const note = await typedBenefitFactory(server, acme.organization.id, 'custom');
    const keys = await typedBenefitFactory(server, acme.organization.id, 'license_keys');
    const email = `leaving-${Date.now()}@example.com`;
    const once = await purchaseFactory(server, acme, [note.id], { email });
    const monthly = await purchaseFactory(server, acme, [keys.id], { recurring: true, email });
    expect(monthly.customerId).toBe(once.customerId);
    await waitForGrant(server, once.customerId, note.id, granted);
    await waitForGrant(server, once.customerId, keys.id, granted);

    const deleted = await server.inject({
      method: 'DELETE',
      url: `/v1/customers/${once.customerId}`,
      headers: bearer(acme.token),
    });
    expect(deleted.statusCode).toBe(204);
    await waitForGrant(server, once.customerId, note.id, revoked);
    await waitForGrant(server, once.customerId, keys.id, revoked);
    await expect
      .poll(
        async () =>
          (
            await db()
              .selectFrom('subscriptions')
              .select(['status', 'ended_at'])
              .where('id', '=', monthly.subscriptionId!)
              .executeTakeFirstOrThrow()
          ).status,
      )
      .toBe('canceled');
    const types = (await webhookData('subscription.revoked')).map((d) => d.id);
    expect(types).toContain(monthly.subscriptionId);
  });
});

describe('benefit updates reach the grants', () => {
  it('a new activation limit and expiry are applied to granted keys', async () => {
    const benefit = await typedBenefitFactory(server, acme.organization.id, 'license_keys');
    const purchase = await purchaseFactory(server, acme, [benefit.id]);
    const grant = await waitForGrant(server, purchase.customerId, benefit.id, granted);
    const keyId = (grant.properties as { license_key_id: string }).license_key_id;
    const patched = await server.inject({
      method: 'PATCH',
      url: `/v1/benefits/${benefit.id}`,
      headers: bearer(acme.token),
      payload: {
        type: 'license_keys',
        properties: {
          prefix: 'acme',
          expires: { ttl: 2, timeframe: 'day' },
          activations: { limit: 7, enable_customer_admin: false },
          limit_usage: null,
        },
      },
    });
    expect(patched.statusCode).toBe(200);
    const deadline = Date.now() + 10_000;
    let key;
    do {
      key = await db().selectFrom('license_keys').selectAll().where('id', '=', keyId).executeTakeFirstOrThrow();
      if (key.limit_activations === 7) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } while (Date.now() < deadline);
    expect(key).toMatchObject({ limit_activations: 7, limit_usage: null, status: 'granted' });
    expect(key.expires_at!.getTime()).toBe(server.clock.now().getTime() + 2 * 86_400_000);
    await expect
      .poll(async () => (await webhookData('benefit_grant.updated')).filter((d) => d.id === grant.id).length)
      .toBe(1);
  });
});

describe('grant listing', () => {
  it('lists grants of a benefit for the seller', async () => {
    const benefit = await typedBenefitFactory(server, acme.organization.id, 'custom');
    const purchase = await purchaseFactory(server, acme, [benefit.id]);
    await waitForGrant(server, purchase.customerId, benefit.id, granted);
    const response = await server.inject({
      method: 'GET',
      url: `/v1/benefits/${benefit.id}/grants?is_granted=true`,
      headers: bearer(acme.token),
    });
    expect(response.statusCode).toBe(200);
    expect(json(response).items).toEqual([
      expect.objectContaining({ customer_id: purchase.customerId, is_granted: true, order_id: purchase.orderId }),
    ]);
  });
});

describe('GET /v1/benefit-grants/', () => {
  let shop: OrganizationFixture;
  let rival: OrganizationFixture;
  const list = (query = '', token = shop.token) =>
    server.inject({ method: 'GET', url: `/v1/benefit-grants/?${query}`, headers: bearer(token) });
  const ids = async (query: string) => json(await list(query)).items.map((g: { id: string }) => g.id);

  let grants: { early: BenefitGrantRow; middle: BenefitGrantRow; late: BenefitGrantRow; pending: BenefitGrantRow };
  let external: { id: string };

  beforeAll(async () => {
    shop = await organizationFactory(server, { name: 'Grant shop' });
    rival = await organizationFactory(server, { name: 'Rival' });
    const custom = await typedBenefitFactory(server, shop.organization.id, 'custom');
    const keys = await typedBenefitFactory(server, shop.organization.id, 'license_keys');
    external = await customerFactory(server, shop.organization.id, { external_id: 'user-42' });
    const at = (day: number) => new Date(Date.UTC(2026, 0, day));
    grants = {
      early: await grantFactory(server, shop.organization.id, custom.id, { createdAt: at(1), customerId: external.id }),
      middle: await grantFactory(server, shop.organization.id, keys.id, { createdAt: at(2), revoked: true }),
      late: await grantFactory(server, shop.organization.id, custom.id, { createdAt: at(3) }),
      pending: await grantFactory(server, shop.organization.id, keys.id, { createdAt: at(4), granted: false }),
    };
    const foreign = await typedBenefitFactory(server, rival.organization.id, 'custom');
    await grantFactory(server, rival.organization.id, foreign.id, { createdAt: at(5) });
  });

  it('401 without a token, 403 without a benefits scope, 422 for bad filters', async () => {
    expect((await server.inject({ method: 'GET', url: '/v1/benefit-grants/' })).statusCode).toBe(401);
    const unrelated = await tokenFactory(server, shop.organization.id, ['license_keys:read']);
    expect((await list('', unrelated)).statusCode).toBe(403);
    for (const scope of ['benefits:read', 'benefits:write']) {
      const token = await tokenFactory(server, shop.organization.id, [scope]);
      expect((await list('', token)).statusCode, scope).toBe(200);
    }
    const bad = await list('is_granted=maybe&customer_id=nope&sorting=name&limit=101');
    expect(bad.statusCode).toBe(422);
    expect(json(bad).detail.map((d: { loc: (string | number)[] }) => d.loc.slice(0, 2).join('.'))).toEqual(
      expect.arrayContaining(['query.is_granted', 'query.customer_id', 'query.sorting', 'query.limit']),
    );
  });

  it("lists only the organization's grants, newest first, with the customer and the benefit", async () => {
    const response = await list();
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(body.items.map((g: { id: string }) => g.id)).toEqual([
      grants.pending.id,
      grants.late.id,
      grants.middle.id,
      grants.early.id,
    ]);
    expect(body.pagination).toEqual({ total_count: 4, max_page: 1 });
    expect(body.items[3]).toMatchObject({
      id: grants.early.id,
      is_granted: true,
      is_revoked: false,
      customer_id: external.id,
      customer: { id: external.id, external_id: 'user-42' },
      benefit_id: grants.early.benefit_id,
      benefit: { id: grants.early.benefit_id, type: 'custom', organization_id: shop.organization.id },
      properties: {},
    });
    expect(body.items[2]).toMatchObject({ is_granted: false, is_revoked: true, benefit: { type: 'license_keys' } });
    // Another organization's token sees none of them; a filter on this organization gives it nothing.
    expect(json(await list('', rival.token)).items).toHaveLength(1);
    expect(json(await list(`organization_id=${shop.organization.id}`, rival.token)).items).toEqual([]);
  });

  it('filters by granted status, customer, external customer id and organization', async () => {
    expect(await ids('is_granted=true')).toEqual([grants.late.id, grants.early.id]);
    // Not granted: revoked, and also pending or failed (granted_at unset), as the reference.
    expect(await ids('is_granted=false')).toEqual([grants.pending.id, grants.middle.id]);
    expect(await ids(`customer_id=${external.id}`)).toEqual([grants.early.id]);
    expect(await ids(`customer_id=${external.id}&customer_id=${grants.late.customer_id}`)).toEqual([
      grants.late.id,
      grants.early.id,
    ]);
    expect(await ids('external_customer_id=user-42')).toEqual([grants.early.id]);
    expect(await ids('external_customer_id=user-42&external_customer_id=nobody')).toEqual([grants.early.id]);
    expect(await ids('external_customer_id=nobody')).toEqual([]);
    expect(await ids(`organization_id=${shop.organization.id}&is_granted=true`)).toEqual([
      grants.late.id,
      grants.early.id,
    ]);
  });

  it('sorts by created_at, granted_at and revoked_at, and pages', async () => {
    expect(await ids('sorting=created_at')).toEqual([
      grants.early.id,
      grants.middle.id,
      grants.late.id,
      grants.pending.id,
    ]);
    // Grants never granted (or revoked) have no granted_at: last ascending, first descending (PostgreSQL's order).
    expect(await ids('sorting=granted_at')).toEqual([
      grants.early.id,
      grants.late.id,
      ...[grants.middle.id, grants.pending.id].sort(),
    ]);
    expect(await ids('sorting=-revoked_at&sorting=created_at')).toEqual([
      grants.early.id,
      grants.late.id,
      grants.pending.id,
      grants.middle.id,
    ]);
    const page = json(await list('limit=3&page=2'));
    expect(page.items.map((g: { id: string }) => g.id)).toEqual([grants.early.id]);
    expect(page.pagination).toEqual({ total_count: 4, max_page: 2 });
  });

  it("lets a member user list their organizations' grants", async () => {
    const user = await userFactory(server);
    await server.runtime.database.db
      .insertInto('user_organizations')
      .values({ user_id: user.id, organization_id: shop.organization.id, created_at: new Date() })
      .execute();
    const response = await server.inject({ method: 'GET', url: '/v1/benefit-grants/', headers: user.headers });
    expect(json(response).items).toHaveLength(4);
  });
});
