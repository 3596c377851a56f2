import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discountFactory, redeem } from './factories/discounts.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { userFactory } from './factories/users.js';
import type { ManualClock } from '../src/platform/clock.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
});
afterAll(() => server?.stop());

const create = (payload: unknown, token = acme.token) =>
  server.inject({ method: 'POST', url: '/v1/discounts/', headers: bearer(token), payload: payload as object });
const get = (id: string, token = acme.token) =>
  server.inject({ method: 'GET', url: `/v1/discounts/${id}`, headers: bearer(token) });
const patch = (id: string, payload: unknown, token = acme.token) =>
  server.inject({ method: 'PATCH', url: `/v1/discounts/${id}`, headers: bearer(token), payload: payload as object });
const del = (id: string, token = acme.token) =>
  server.inject({ method: 'DELETE', url: `/v1/discounts/${id}`, headers: bearer(token) });
const list = (query: string, token = acme.token) =>
  server.inject({ method: 'GET', url: `/v1/discounts/?${query}`, headers: bearer(token) });

async function discountCount(): Promise<number> {
  const row = await server.runtime.database.db
    .selectFrom('discounts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('auth matrix', () => {
  it('answers 401 without a token', async () => {
    const response = await server.inject({ method: 'GET', url: '/v1/discounts/' });
    expect(response.statusCode).toBe(401);
  });

  it('answers 403 when the token lacks the scope', async () => {
    const readOnly = await tokenFactory(server, acme.organization.id, ['discounts:read']);
    expect((await list('', readOnly)).statusCode).toBe(200);
    const response = await create({ name: 'x', type: 'percentage', duration: 'once', basis_points: 100 }, readOnly);
    expect(response.statusCode).toBe(403);
    const unrelated = await tokenFactory(server, acme.organization.id, ['products:read']);
    expect((await list('', unrelated)).statusCode).toBe(403);
  });

  it("answers 404 for another organization's discount", async () => {
    const foreign = await discountFactory(server, other.organization.id);
    expect((await get(foreign.id)).statusCode).toBe(404);
    expect((await patch(foreign.id, { name: 'Mine now' })).statusCode).toBe(404);
    expect((await del(foreign.id)).statusCode).toBe(404);
    expect(json(await get(foreign.id, other.token)).name).toBe(foreign.name);
  });

  it('answers 422 listing every problem, and writes nothing', async () => {
    const before = await discountCount();
    const response = await create({
      name: '',
      type: 'fixed',
      duration: 'repeating',
      code: 'no spaces!',
      max_redemptions: 0,
    });
    expect(response.statusCode).toBe(422);
    const locs = json(response).detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.name', 'body.code', 'body.max_redemptions']));
    expect(await discountCount()).toBe(before);
  });
});

describe('POST /v1/discounts/', () => {
  it('creates each type and duration with the fields of its variant', async () => {
    const fixedOnce = json(await create({ name: 'Ten off', type: 'fixed', duration: 'once', amount: 1000 }));
    expect(fixedOnce).toMatchObject({
      type: 'fixed',
      duration: 'once',
      amount: 1000,
      currency: 'usd',
      redemptions_count: 0,
      code: null,
      products: [],
    });
    expect(fixedOnce).not.toHaveProperty('basis_points');
    expect(fixedOnce).not.toHaveProperty('duration_in_months');

    const percentRepeating = json(
      await create({
        name: 'Quarter',
        type: 'percentage',
        duration: 'repeating',
        duration_in_months: 3,
        basis_points: 2500,
        amount: 99,
      }),
    );
    expect(percentRepeating).toMatchObject({
      type: 'percentage',
      duration: 'repeating',
      duration_in_months: 3,
      basis_points: 2500,
    });
    expect(percentRepeating).not.toHaveProperty('amount');

    const forever = json(
      await create({
        name: 'Forever',
        type: 'fixed',
        duration: 'forever',
        amount: 500,
        currency: 'eur',
        duration_in_months: 7,
      }),
    );
    expect(forever).toMatchObject({ duration: 'forever', currency: 'eur' });
    expect(forever).not.toHaveProperty('duration_in_months');
  });

  it.each([
    [{ type: 'fixed', duration: 'once' }, 'amount'],
    [{ type: 'percentage', duration: 'once' }, 'basis_points'],
    [{ type: 'percentage', duration: 'repeating', basis_points: 100 }, 'duration_in_months'],
    [{ type: 'percentage', duration: 'once', basis_points: 0 }, 'basis_points'],
    [{ type: 'percentage', duration: 'once', basis_points: 10001 }, 'basis_points'],
    [{ type: 'fixed', duration: 'once', amount: -1 }, 'amount'],
    [{ type: 'fixed', duration: 'once', amount: 100, currency: 'USD' }, 'currency'],
    [{ type: 'fixed', duration: 'once', amount: 100, code: 'ab' }, 'code'],
    [{ type: 'fixed', duration: 'once', amount: 100, code: 'x'.repeat(257) }, 'code'],
    [{ type: 'bogus', duration: 'once', amount: 100 }, 'type'],
    [
      {
        type: 'fixed',
        duration: 'once',
        amount: 100,
        starts_at: '2026-03-01T00:00:00Z',
        ends_at: '2026-02-01T00:00:00Z',
      },
      'ends_at',
    ],
    [{ type: 'fixed', duration: 'once', amount: 100, starts_at: '2026-03-01T00:00:00' }, 'starts_at'],
  ])('rejects %j at %s', async (body, field) => {
    const response = await create({ name: 'Bad', ...body });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail.map((d: { loc: unknown[] }) => d.loc[1])).toContain(field);
  });

  it('treats an empty code as no code', async () => {
    const response = await create({ name: 'No code', type: 'fixed', duration: 'once', amount: 100, code: '' });
    expect(json(response).code).toBeNull();
  });

  it('rejects a code already used in the organization, whatever its case; another organization may use it', async () => {
    expect(
      (await create({ name: 'A', type: 'fixed', duration: 'once', amount: 100, code: 'SPRING26' })).statusCode,
    ).toBe(201);
    const clash = await create({ name: 'B', type: 'fixed', duration: 'once', amount: 100, code: 'spring26' });
    expect(clash.statusCode).toBe(422);
    expect(json(clash).detail[0]).toMatchObject({
      loc: ['body', 'code'],
      msg: 'Discount with this code already exists.',
    });
    expect(
      (await create({ name: 'C', type: 'fixed', duration: 'once', amount: 100, code: 'SPRING26' }, other.token))
        .statusCode,
    ).toBe(201);
  });

  it('restricts to products of the organization only', async () => {
    const mine = await productFactory(server, acme.organization.id);
    const theirs = await productFactory(server, other.organization.id);
    const response = await create({
      name: 'Scoped',
      type: 'percentage',
      duration: 'once',
      basis_points: 500,
      products: [mine.product.id, theirs.product.id],
    });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail).toEqual([
      expect.objectContaining({ loc: ['body', 'products', 1], msg: 'Product not found.' }),
    ]);
    const ok = json(
      await create({
        name: 'Scoped',
        type: 'percentage',
        duration: 'once',
        basis_points: 500,
        products: [mine.product.id],
      }),
    );
    expect(ok.products).toEqual([expect.objectContaining({ id: mine.product.id, is_recurring: false, metadata: {} })]);
  });

  it('requires organization_id for a dashboard user, and refuses it with a token', async () => {
    const user = await userFactory(server);
    const missing = await server.inject({
      method: 'POST',
      url: '/v1/discounts/',
      headers: user.headers,
      payload: { name: 'U', type: 'fixed', duration: 'once', amount: 100 },
    });
    expect(missing.statusCode).toBe(422);
    expect(json(missing).detail[0].loc).toEqual(['body', 'organization_id']);
    const withToken = await create({
      name: 'T',
      type: 'fixed',
      duration: 'once',
      amount: 100,
      organization_id: acme.organization.id,
    });
    expect(withToken.statusCode).toBe(422);
    expect(json(withToken).detail[0].type).toBe('organization_token');
  });
});

describe('PATCH /v1/discounts/{id}', () => {
  it('never changes type or duration', async () => {
    const discount = await discountFactory(server, acme.organization.id);
    const response = await patch(discount.id, { type: 'fixed', duration: 'forever' });
    expect(response.statusCode).toBe(422);
    expect(
      json(response)
        .detail.map((d: { msg: string }) => d.msg)
        .sort(),
    ).toEqual(['Duration cannot be changed.', 'Type cannot be changed.']);
  });

  it('changes the percentage before any redemption, and freezes it after', async () => {
    const discount = await discountFactory(server, acme.organization.id, { basis_points: 1000 });
    const first = await patch(discount.id, { basis_points: 2000, currency: 'usd' });
    expect(first.statusCode).toBe(200);
    expect(json(first).basis_points).toBe(2000);
    await redeem(server, discount.id);
    expect(json(await get(discount.id)).redemptions_count).toBe(1);
    const frozen = await patch(discount.id, { basis_points: 3000 });
    expect(frozen.statusCode).toBe(422);
    expect(json(frozen).detail[0]).toMatchObject({
      loc: ['body', 'basis_points'],
      msg: 'This field cannot be changed because the discount has already been redeemed.',
    });
    // Resending the same values (the SDK always sends currency "usd") is not a change.
    const same = await patch(discount.id, { basis_points: 2000, currency: 'usd', name: 'Renamed' });
    expect(same.statusCode).toBe(200);
    expect(json(same).name).toBe('Renamed');
  });

  it('freezes the amount and currency of a redeemed fixed discount', async () => {
    const discount = await discountFactory(server, acme.organization.id, {
      type: 'fixed',
      amount: 500,
      basis_points: undefined,
    });
    await redeem(server, discount.id);
    const response = await patch(discount.id, { amount: 600, currency: 'eur' });
    expect(response.statusCode).toBe(422);
    expect(
      json(response)
        .detail.map((d: { loc: unknown[] }) => d.loc[1])
        .sort(),
    ).toEqual(['amount', 'currency']);
    expect(json(await get(discount.id))).toMatchObject({ amount: 500, currency: 'usd' });
  });

  it('requires the end of the window to stay in the future when it changes', async () => {
    const discount = await discountFactory(server, acme.organization.id);
    const past = await patch(discount.id, { ends_at: '2026-01-01T00:00:00Z' });
    expect(past.statusCode).toBe(422);
    expect(json(past).detail[0].msg).toBe('Ends at must be in the future.');
    const future = await patch(discount.id, {
      starts_at: '2026-02-01T00:00:00Z',
      ends_at: '2026-03-01T00:00:00Z',
      max_redemptions: 10,
    });
    expect(json(future)).toMatchObject({
      starts_at: '2026-02-01T00:00:00.000Z',
      ends_at: '2026-03-01T00:00:00.000Z',
      max_redemptions: 10,
    });
  });

  it('replaces the products and checks the new code', async () => {
    const [a, b] = [
      await productFactory(server, acme.organization.id),
      await productFactory(server, acme.organization.id),
    ];
    const discount = await discountFactory(server, acme.organization.id, {
      products: [a.product.id],
      code: 'FIRSTCODE',
    });
    await discountFactory(server, acme.organization.id, { code: 'TAKEN1' });
    const taken = await patch(discount.id, { code: 'taken1' });
    expect(taken.statusCode).toBe(422);
    const response = await patch(discount.id, { products: [b.product.id], code: 'NEWCODE1' });
    expect(json(response).products.map((p: { id: string }) => p.id)).toEqual([b.product.id]);
    expect(json(response).code).toBe('NEWCODE1');
    const cleared = await patch(discount.id, { products: [], code: null });
    expect(json(cleared)).toMatchObject({ products: [], code: null });
  });
});

describe('DELETE /v1/discounts/{id}', () => {
  it('soft-deletes: 204, then 404, and the code is free again', async () => {
    const discount = await discountFactory(server, acme.organization.id, { code: 'GONE2026' });
    const response = await del(discount.id);
    expect(response.statusCode).toBe(204);
    expect((await get(discount.id)).statusCode).toBe(404);
    expect((await del(discount.id)).statusCode).toBe(404);
    const row = await server.runtime.database.db
      .selectFrom('discounts')
      .select('deleted_at')
      .where('id', '=', discount.id)
      .executeTakeFirst();
    expect(row?.deleted_at).not.toBeNull();
    expect(
      (await create({ name: 'Again', type: 'fixed', duration: 'once', amount: 1, code: 'gone2026' })).statusCode,
    ).toBe(201);
  });
});

describe('GET /v1/discounts/', () => {
  it('pages, sorts, searches and filters by organization', async () => {
    const org = await organizationFactory(server);
    const names = ['Charlie', 'alpha', 'Bravo', 'delta', 'Echo'];
    const created = [];
    for (const [i, name] of names.entries()) {
      (server.clock as ManualClock).advance(1000);
      created.push(await discountFactory(server, org.organization.id, { name, code: `CODE${i}X` }));
    }
    await redeem(server, created[3]!.id);
    await redeem(server, created[3]!.id);
    await redeem(server, created[0]!.id);

    const page1 = json(await list('limit=2&sorting=name', org.token));
    expect(page1.pagination).toEqual({ total_count: 5, max_page: 3 });
    expect(page1.items.map((d: { name: string }) => d.name)).toEqual(['alpha', 'Bravo']);
    const page3 = json(await list('limit=2&page=3&sorting=name', org.token));
    expect(page3.items.map((d: { name: string }) => d.name)).toEqual(['Echo']);

    const byRedemptions = json(await list('sorting=-redemptions_count&sorting=name', org.token));
    expect(byRedemptions.items.map((d: { name: string }) => d.name).slice(0, 2)).toEqual(['delta', 'Charlie']);
    expect(byRedemptions.items[0].redemptions_count).toBe(2);

    const newest = json(await list('', org.token));
    expect(newest.items[0].name).toBe('Echo');

    expect(json(await list('query=brav', org.token)).items.map((d: { name: string }) => d.name)).toEqual(['Bravo']);
    expect(json(await list('query=code3', org.token)).items.map((d: { name: string }) => d.name)).toEqual(['delta']);
    expect(json(await list(`organization_id=${acme.organization.id}`, org.token)).items).toEqual([]);
  });
});
