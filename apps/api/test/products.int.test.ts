import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/platform/clock.js';
import { benefitFactory, meterFactory } from './factories/benefits.js';
import { customFieldFactory } from './factories/custom-fields.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { customPrice, fixedPrice, freePrice, meteredPrice, productFactory } from './factories/products.js';
import { userFactory } from './factories/users.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
let clock: ManualClock;
let acme: OrganizationFixture;
let other: OrganizationFixture;
let meterId: string;
let otherMeterId: string;

beforeAll(async () => {
  clock = new ManualClock('2026-01-15T12:00:00.000Z');
  server = await startTestServer({ clock });
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
  meterId = (await meterFactory(server, acme.organization.id, { name: 'API calls' })).id;
  otherMeterId = (await meterFactory(server, other.organization.id)).id;
});
afterAll(() => server?.stop());

type Headers = Record<string, string>;
const create = (payload: unknown, headers: Headers = bearer(acme.token)) =>
  server.inject({ method: 'POST', url: '/v1/products/', headers, payload: payload as object });
const get = (id: string, headers: Headers = bearer(acme.token)) =>
  server.inject({ method: 'GET', url: `/v1/products/${id}`, headers });
const patch = (id: string, payload: unknown, headers: Headers = bearer(acme.token)) =>
  server.inject({ method: 'PATCH', url: `/v1/products/${id}`, headers, payload: payload as object });
const setBenefits = (id: string, benefits: unknown, headers: Headers = bearer(acme.token)) =>
  server.inject({ method: 'POST', url: `/v1/products/${id}/benefits`, headers, payload: { benefits } });
const list = (query: string, headers: Headers = bearer(acme.token)) =>
  server.inject({ method: 'GET', url: `/v1/products/${query}`, headers });

const oneTime = (overrides: Record<string, unknown> = {}) => ({
  name: 'Ebook',
  recurring_interval: null,
  prices: [fixedPrice(1500)],
  ...overrides,
});

async function counts(organizationId: string): Promise<{ products: number; prices: number; events: number }> {
  const db = server.runtime.database.db;
  const n = (row: { n: string }) => Number(row.n);
  const products = await db
    .selectFrom('products')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const prices = await db
    .selectFrom('product_prices')
    .innerJoin('products', 'products.id', 'product_prices.product_id')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('products.organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const events = await db
    .selectFrom('webhook_events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return { products: n(products), prices: n(prices), events: n(events) };
}

/** The latest webhook event about this product (tests move the clock between changes of one product). */
async function lastEvent(organizationId: string, productId: string): Promise<{ type: string; data: unknown }> {
  const rows = await server.runtime.database.db
    .selectFrom('webhook_events')
    .select(['type', 'payload', 'created_at'])
    .where('organization_id', '=', organizationId)
    .orderBy('created_at', 'desc')
    .execute();
  const about = rows.filter((row) => (row.payload as { data: { id: string } }).data.id === productId);
  return { type: about[0]!.type, data: (about[0]!.payload as { data: unknown }).data };
}

const locs = (body: { detail: { loc: (string | number)[] }[] }) => body.detail.map((d) => d.loc.join('.'));

describe('auth matrix', () => {
  let productId: string;
  let foreignId: string;
  beforeAll(async () => {
    productId = (await productFactory(server, acme.organization.id)).product.id;
    foreignId = (await productFactory(server, other.organization.id)).product.id;
  });

  it('answers 401 without a token on every route', async () => {
    const responses = await Promise.all([
      list('', {}),
      create(oneTime(), {}),
      get(productId, {}),
      patch(productId, { name: 'Nope' }, {}),
      setBenefits(productId, [], {}),
    ]);
    for (const response of responses) {
      expect(response.statusCode).toBe(401);
      expect(json(response)).toEqual({ error: 'Unauthorized', detail: 'Unauthorized' });
    }
  });

  it('answers 403 insufficient_scope for a token lacking the scope', async () => {
    const reader = await tokenFactory(server, acme.organization.id, ['products:read']);
    expect((await get(productId, bearer(reader))).statusCode).toBe(200);
    expect((await list('', bearer(reader))).statusCode).toBe(200);
    for (const response of [
      await create(oneTime(), bearer(reader)),
      await patch(productId, { name: 'Nope' }, bearer(reader)),
      await setBenefits(productId, [], bearer(reader)),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(json(response).error).toBe('insufficient_scope');
    }
    const unrelated = await tokenFactory(server, acme.organization.id, ['benefits:write']);
    expect((await get(productId, bearer(unrelated))).statusCode).toBe(403);
    expect((await list('', bearer(unrelated))).statusCode).toBe(403);
    const writer = await tokenFactory(server, acme.organization.id, ['products:write']);
    expect((await get(productId, bearer(writer))).statusCode).toBe(200);
  });

  it("answers 404 for another organization's product and leaves it alone", async () => {
    for (const response of [
      await get(foreignId),
      await patch(foreignId, { name: 'Hijacked' }),
      await setBenefits(foreignId, []),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(json(response)).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    }
    expect(json(await get(foreignId, bearer(other.token))).name).not.toBe('Hijacked');
    expect(json(await list('', bearer(acme.token))).items.some((p: { id: string }) => p.id === foreignId)).toBe(false);
  });

  it('answers 422 for a bad create body, listing every problem, and creates nothing', async () => {
    const before = await counts(acme.organization.id);
    const response = await create({
      name: 'ab',
      prices: [{ amount_type: 'fixed', price_amount: 10 }, { amount_type: 'bogus' }],
      medias: [randomUUID()],
    });
    expect(response.statusCode).toBe(422);
    const body = json(response);
    expect(body.error).toBe('RequestValidationError');
    expect(locs(body)).toEqual(
      expect.arrayContaining([
        'body.name',
        'body.recurring_interval',
        'body.prices.0.price_amount',
        'body.prices.1.amount_type',
      ]),
    );
    for (const issue of body.detail) expect(Object.keys(issue).sort()).toEqual(['loc', 'msg', 'type']);
    expect(await counts(acme.organization.id)).toEqual(before);
  });

  it('answers 422 for business-rule problems and creates nothing (no product, price or event)', async () => {
    const before = await counts(acme.organization.id);
    const response = await create(oneTime({ prices: [fixedPrice(), freePrice()], medias: [randomUUID()] }));
    expect(response.statusCode).toBe(422);
    expect(locs(json(response))).toEqual(['body.prices.1', 'body.medias.0']);
    expect(await counts(acme.organization.id)).toEqual(before);
  });

  it('answers 422 for a bad update and changes nothing', async () => {
    const before = json(await get(productId));
    const countsBefore = await counts(acme.organization.id);
    const response = await patch(productId, {
      name: 'Renamed',
      prices: [{ id: before.prices[0].id }, freePrice()],
    });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail).toEqual([
      { loc: ['body', 'prices', 1], msg: 'Only one static price is allowed.', type: 'value_error' },
    ]);
    expect(json(await get(productId))).toEqual(before);
    expect(await counts(acme.organization.id)).toEqual(countsBefore);
  });

  it('answers 422 for an id that is not a UUID', async () => {
    const response = await get('not-a-uuid');
    expect(response.statusCode).toBe(422);
    expect(json(response).detail[0].loc).toEqual(['path', 'id']);
  });

  it('lets a member user act for an organization named in the body; a token may not name one', async () => {
    const user = await userFactory(server);
    const created = json(
      await server.inject({
        method: 'POST',
        url: '/v1/organizations/',
        headers: user.headers,
        payload: { name: 'Mine', slug: `mine-${randomUUID().slice(0, 8)}` },
      }),
    );
    const missing = await create(oneTime(), user.headers);
    expect(missing.statusCode).toBe(422);
    expect(json(missing).detail[0].loc).toEqual(['body', 'organization_id']);
    const foreign = await create(oneTime({ organization_id: acme.organization.id }), user.headers);
    expect(json(foreign).detail[0]).toMatchObject({ loc: ['body', 'organization_id'], msg: 'Organization not found.' });
    const ok = await create(oneTime({ organization_id: created.id }), user.headers);
    expect(ok.statusCode).toBe(201);
    expect(json(ok).organization_id).toBe(created.id);
    expect((await get(json(ok).id, user.headers)).statusCode).toBe(200);
    expect((await get(json(ok).id)).statusCode).toBe(404);
    const viaToken = await create(oneTime({ organization_id: acme.organization.id }));
    expect(json(viaToken).detail[0]).toMatchObject({ loc: ['body', 'organization_id'], type: 'organization_token' });
  });
});

describe('POST /v1/products/', () => {
  it('creates a one-time product with a fixed price in usd, and records product.created', async () => {
    const response = await create(oneTime({ description: 'A book', metadata: { sku: 'B-1', pages: 300 } }));
    expect(response.statusCode).toBe(201);
    const product = json(response);
    expect(product).toEqual({
      id: expect.any(String),
      created_at: clock.now().toISOString(),
      modified_at: null,
      name: 'Ebook',
      description: 'A book',
      recurring_interval: null,
      recurring_interval_count: null,
      meter_interval: null,
      meter_interval_count: null,
      visibility: 'public',
      is_recurring: false,
      is_archived: false,
      is_tax_applicable: true,
      trial_interval: null,
      trial_interval_count: null,
      trial_requires_payment_method: true,
      trial_once_per_customer: true,
      organization_id: acme.organization.id,
      metadata: { sku: 'B-1', pages: 300 },
      prices: [
        {
          id: expect.any(String),
          created_at: clock.now().toISOString(),
          modified_at: null,
          amount_type: 'fixed',
          is_archived: false,
          product_id: product.id,
          type: 'one_time',
          recurring_interval: null,
          source: 'catalog',
          tax_behavior: null,
          price_currency: 'usd',
          price_amount: 1500,
        },
      ],
      benefits: [],
      medias: [],
      attached_custom_fields: [],
    });
    expect(await lastEvent(acme.organization.id, product.id)).toEqual({ type: 'product.created', data: product });
  });

  it('creates a recurring product whose prices inherit its interval, metered ones included', async () => {
    const response = await create({
      name: 'Pro plan',
      recurring_interval: 'month',
      prices: [meteredPrice(meterId, 0.5, 10_000), fixedPrice(2000)],
    });
    expect(response.statusCode).toBe(201);
    const product = json(response);
    expect(product.is_recurring).toBe(true);
    // Static prices first, then metered.
    expect(product.prices.map((p: { amount_type: string }) => p.amount_type)).toEqual(['fixed', 'metered_unit']);
    for (const price of product.prices) expect(price).toMatchObject({ type: 'recurring', recurring_interval: 'month' });
    expect(product.prices[1]).toMatchObject({
      price_currency: 'usd',
      unit_amount: '0.5',
      cap_amount: 10_000,
      meter_id: meterId,
      meter: { id: meterId, name: 'API calls' },
    });
  });

  it('shows a free price without a currency', async () => {
    const product = json(await create(oneTime({ prices: [freePrice()] })));
    expect(product.prices[0]).not.toHaveProperty('price_currency');
    expect(product.prices[0].amount_type).toBe('free');
  });

  it('treats an empty description as none', async () => {
    expect(json(await create(oneTime({ description: '' }))).description).toBeNull();
  });

  it.each([
    [49, 'greater_than_equal'],
    [100_000_000, 'less_than_equal'],
    [12.5, 'int_type'],
  ])('rejects the fixed amount %s', async (amount, type) => {
    const response = await create(oneTime({ prices: [fixedPrice(amount)] }));
    expect(json(response).detail).toEqual([
      expect.objectContaining({ loc: ['body', 'prices', 0, 'price_amount'], type }),
    ]);
  });

  it.each([50, 99_999_999])('accepts the fixed amount %s', async (amount) => {
    expect((await create(oneTime({ prices: [fixedPrice(amount)] }))).statusCode).toBe(201);
  });

  it.each([
    ['USD', 'string_pattern_mismatch'],
    ['dollars', 'string_pattern_mismatch'],
    ['zzz', 'value_error'],
  ])('rejects the currency %j', async (currency, type) => {
    const response = await create(oneTime({ prices: [fixedPrice(1000, currency)] }));
    expect(json(response).detail).toEqual([
      expect.objectContaining({ loc: ['body', 'prices', 0, 'price_currency'], type }),
    ]);
  });

  it('accepts another ISO 4217 currency, lower-case', async () => {
    const product = json(await create(oneTime({ prices: [fixedPrice(1000, 'eur')] })));
    expect(product.prices[0].price_currency).toBe('eur');
  });

  it('checks custom amounts: bounds, and minimum ≤ preset ≤ maximum', async () => {
    const ok = json(
      await create(
        oneTime({ prices: [customPrice({ minimum_amount: 500, preset_amount: 1000, maximum_amount: 5000 })] }),
      ),
    );
    expect(ok.prices[0]).toMatchObject({
      amount_type: 'custom',
      price_currency: 'usd',
      minimum_amount: 500,
      preset_amount: 1000,
      maximum_amount: 5000,
    });
    const empty = json(await create(oneTime({ prices: [customPrice()] })));
    expect(empty.prices[0]).toMatchObject({ minimum_amount: null, maximum_amount: null, preset_amount: null });
    const zero = await create(oneTime({ prices: [customPrice({ minimum_amount: 0 })] }));
    expect(zero.statusCode).toBe(201);

    const cases: [Record<string, number>, string[]][] = [
      [{ minimum_amount: 49 }, ['body.prices.0.minimum_amount']],
      [{ maximum_amount: 1_000_001 }, ['body.prices.0.maximum_amount']],
      [{ preset_amount: 10 }, ['body.prices.0.preset_amount']],
      [{ minimum_amount: 2000, maximum_amount: 1000 }, ['body.prices.0.maximum_amount']],
      [{ minimum_amount: 2000, preset_amount: 1000 }, ['body.prices.0.preset_amount']],
      [{ maximum_amount: 1000, preset_amount: 2000 }, ['body.prices.0.preset_amount']],
    ];
    for (const [amounts, expected] of cases) {
      const response = await create(oneTime({ prices: [customPrice(amounts)] }));
      expect(response.statusCode, JSON.stringify(amounts)).toBe(422);
      expect(locs(json(response)), JSON.stringify(amounts)).toEqual(expected);
    }
  });

  it('normalises metered unit amounts to decimal strings, without floating-point error', async () => {
    const cases: [number | string, string][] = [
      [0.5, '0.5'],
      ['1.50', '1.5'],
      ['0.000000000001', '0.000000000001'],
      ['99999.999999999999', '99999.999999999999'],
      [12, '12'],
      [1e-7, '0.0000001'],
    ];
    for (const [input, expected] of cases) {
      const response = await create({
        name: 'Usage',
        recurring_interval: 'year',
        prices: [meteredPrice(meterId, input)],
      });
      expect(response.statusCode, String(input)).toBe(201);
      const created = json(response);
      expect(created.prices[0].unit_amount).toBe(expected);
      // And as read back from numeric(17,12).
      expect(json(await get(created.id)).prices[0].unit_amount).toBe(expected);
    }
  });

  it.each([
    [0, 'greater_than'],
    ['-1', 'greater_than'],
    ['0.0000000000001', 'decimal_max_places'],
    ['100000', 'decimal_whole_digits'],
    ['ten', 'decimal_parsing'],
  ])('rejects the unit amount %j', async (unitAmount, type) => {
    const response = await create({
      name: 'Usage',
      recurring_interval: 'month',
      prices: [meteredPrice(meterId, unitAmount)],
    });
    expect(json(response).detail).toEqual([
      expect.objectContaining({ loc: ['body', 'prices', 0, 'unit_amount'], type }),
    ]);
  });

  it('applies the rules over the price list', async () => {
    const cases: [unknown[], string | null, [string, string][]][] = [
      [[], null, [['body.prices', 'At least one price is required.']]],
      [[fixedPrice(), customPrice()], null, [['body.prices.1', 'Only one static price is allowed.']]],
      [[freePrice(), fixedPrice()], 'month', [['body.prices.1', 'Only one static price is allowed.']]],
      [
        [fixedPrice(), meteredPrice(meterId)],
        null,
        [['body.prices.1', 'Metered pricing is not supported on one-time products.']],
      ],
      [
        [meteredPrice(meterId), meteredPrice(meterId, '2')],
        'month',
        [['body.prices.1.meter_id', 'Meter is already used for another price.']],
      ],
      [[meteredPrice(otherMeterId)], 'month', [['body.prices.0.meter_id', 'Meter does not exist.']]],
      [[meteredPrice(randomUUID())], 'month', [['body.prices.0.meter_id', 'Meter does not exist.']]],
      [
        [fixedPrice(1000, 'usd'), { ...meteredPrice(meterId), price_currency: 'eur' }],
        'month',
        [['body.prices.1.price_currency', 'All prices of a product must use the same currency.']],
      ],
      [[{ ...meteredPrice(meterId), cap_amount: -1 }], 'month', [['body.prices.0.cap_amount', expect.any(String)]]],
    ];
    for (const [prices, interval, expected] of cases) {
      const response = await create({ name: 'Rules', recurring_interval: interval, prices });
      expect(response.statusCode, JSON.stringify(prices)).toBe(422);
      expect(
        json(response).detail.map((d: { loc: string[]; msg: string }) => [d.loc.join('.'), d.msg]),
        JSON.stringify(prices),
      ).toEqual(expected);
    }
  });

  it('does not accept an archived meter', async () => {
    const archived = await meterFactory(server, acme.organization.id, { archived_at: clock.now() });
    const response = await create({ name: 'Usage', recurring_interval: 'month', prices: [meteredPrice(archived.id)] });
    expect(json(response).detail[0]).toMatchObject({
      loc: ['body', 'prices', 0, 'meter_id'],
      msg: 'Meter does not exist.',
    });
  });

  it('requires name (3+ characters), recurring_interval (may be null) and prices', async () => {
    const response = await create({});
    expect(json(response).detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['body', 'name'], type: 'missing' }),
        expect.objectContaining({ loc: ['body', 'recurring_interval'], type: 'missing' }),
        expect.objectContaining({ loc: ['body', 'prices'], type: 'missing' }),
      ]),
    );
    const interval = await create(oneTime({ recurring_interval: 'week' }));
    expect(json(interval).detail).toEqual([
      expect.objectContaining({ loc: ['body', 'recurring_interval'], type: 'enum' }),
    ]);
  });

  it('refuses media ids: there are no files yet', async () => {
    const response = await create(oneTime({ medias: [randomUUID(), randomUUID()] }));
    expect(json(response).detail).toEqual([
      { loc: ['body', 'medias', 0], msg: 'File not found', type: 'value_error' },
      { loc: ['body', 'medias', 1], msg: 'File not found', type: 'value_error' },
    ]);
    expect((await create(oneTime({ medias: [] }))).statusCode).toBe(201);
  });

  it('attaches custom fields of the organization, in order, with the full field', async () => {
    const first = await customFieldFactory(server, acme.organization.id, { name: 'Company' });
    const second = await customFieldFactory(server, acme.organization.id, { name: 'Seats' });
    const response = await create(
      oneTime({
        attached_custom_fields: [
          { custom_field_id: second.id, required: true },
          { custom_field_id: first.id, required: false },
        ],
      }),
    );
    expect(response.statusCode).toBe(201);
    const attached = json(response).attached_custom_fields;
    expect(attached).toEqual([
      {
        custom_field_id: second.id,
        custom_field: expect.objectContaining({ id: second.id, name: 'Seats', type: 'text' }),
        order: 0,
        required: true,
      },
      {
        custom_field_id: first.id,
        custom_field: expect.objectContaining({ id: first.id, name: 'Company' }),
        order: 1,
        required: false,
      },
    ]);
  });

  it("refuses another organization's, a deleted, an unknown or a repeated custom field", async () => {
    const foreign = await customFieldFactory(server, other.organization.id);
    const deleted = await customFieldFactory(server, acme.organization.id);
    const removed = await server.inject({
      method: 'DELETE',
      url: `/v1/custom-fields/${deleted.id}`,
      headers: bearer(acme.token),
    });
    expect(removed.statusCode).toBe(204);
    const mine = await customFieldFactory(server, acme.organization.id);
    const response = await create(
      oneTime({
        attached_custom_fields: [
          { custom_field_id: foreign.id, required: false },
          { custom_field_id: deleted.id, required: false },
          { custom_field_id: randomUUID(), required: false },
          { custom_field_id: mine.id, required: false },
          { custom_field_id: mine.id, required: true },
        ],
      }),
    );
    expect(json(response).detail.map((d: { loc: unknown[]; msg: string }) => [d.loc.join('.'), d.msg])).toEqual([
      ['body.attached_custom_fields.0.custom_field_id', 'Custom field does not exist.'],
      ['body.attached_custom_fields.1.custom_field_id', 'Custom field does not exist.'],
      ['body.attached_custom_fields.2.custom_field_id', 'Custom field does not exist.'],
      ['body.attached_custom_fields.4.custom_field_id', 'Custom field is already attached.'],
    ]);
  });
});

describe('PATCH /v1/products/{id}', () => {
  it('updates plain fields, leaves null ones alone, and records product.updated', async () => {
    const { product } = await productFactory(server, acme.organization.id, {
      name: 'Original',
      description: 'First',
      metadata: { a: 1 },
    });
    clock.advance(60_000);
    const response = await patch(product.id, { name: 'Renamed', description: '', metadata: { b: true } });
    expect(response.statusCode).toBe(200);
    const updated = json(response);
    expect(updated).toMatchObject({
      name: 'Renamed',
      description: 'First',
      metadata: { b: true },
      modified_at: clock.now().toISOString(),
    });
    expect(await lastEvent(acme.organization.id, updated.id)).toEqual({ type: 'product.updated', data: updated });
    const untouched = json(await patch(product.id, { name: null, description: null, is_archived: null }));
    expect(untouched).toMatchObject({ name: 'Renamed', description: 'First', is_archived: false });
  });

  it('never changes the recurring interval', async () => {
    const { product } = await productFactory(server, acme.organization.id, {
      recurring_interval: 'month',
      prices: [fixedPrice(900)],
    });
    const changed = await patch(product.id, { recurring_interval: 'year' });
    expect(json(changed).detail).toEqual([
      { loc: ['body', 'recurring_interval'], msg: 'Recurring interval cannot be changed.', type: 'value_error' },
    ]);
    expect((await patch(product.id, { recurring_interval: 'month' })).statusCode).toBe(200);
    expect(json(await patch(product.id, { recurring_interval: null })).recurring_interval).toBe('month');
    const oneTimeProduct = (await productFactory(server, acme.organization.id)).product;
    expect((await patch(oneTimeProduct.id, { recurring_interval: 'month' })).statusCode).toBe(422);
  });

  it('keeps prices listed by id, creates new ones, and archives the rest', async () => {
    const { product, prices } = await productFactory(server, acme.organization.id, {
      recurring_interval: 'month',
      prices: [fixedPrice(1000), meteredPrice(meterId, '0.25')],
    });
    const [fixed, metered] = prices;
    clock.advance(1000);
    const response = await patch(product.id, { prices: [{ id: metered!.id }, customPrice({ minimum_amount: 300 })] });
    expect(response.statusCode).toBe(200);
    const updated = json(response);
    expect(updated.prices.map((p: { id: string; amount_type: string }) => p.amount_type)).toEqual([
      'custom',
      'metered_unit',
    ]);
    expect(updated.prices[1].id).toBe(metered!.id);
    expect(updated.prices[0]).toMatchObject({ type: 'recurring', recurring_interval: 'month', minimum_amount: 300 });
    const stored = await server.runtime.database.db
      .selectFrom('product_prices')
      .select(['id', 'is_archived', 'modified_at'])
      .where('id', '=', fixed!.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ id: fixed!.id, is_archived: true, modified_at: clock.now() });

    // An archived price cannot be revived; another product's price is not this product's.
    const foreign = (await productFactory(server, acme.organization.id)).prices[0]!;
    const revive = await patch(product.id, { prices: [{ id: fixed!.id }, { id: foreign.id }, { id: metered!.id }] });
    expect(json(revive).detail.map((d: { loc: unknown[]; msg: string }) => [d.loc.join('.'), d.msg])).toEqual([
      ['body.prices.0.id', 'Price does not exist.'],
      ['body.prices.1.id', 'Price does not exist.'],
    ]);
    // Without `prices`, prices stay as they are.
    expect(json(await patch(product.id, { name: 'Still priced' })).prices).toEqual(updated.prices);
  });

  it('checks the rules over the new list, kept prices included', async () => {
    const { product, prices } = await productFactory(server, acme.organization.id, {
      recurring_interval: 'year',
      prices: [fixedPrice(1000), meteredPrice(meterId)],
    });
    const response = await patch(product.id, {
      prices: [{ id: prices[0]!.id }, { id: prices[1]!.id }, freePrice(), meteredPrice(meterId)],
    });
    expect(json(response).detail.map((d: { loc: unknown[]; msg: string }) => [d.loc.join('.'), d.msg])).toEqual([
      ['body.prices.2', 'Only one static price is allowed.'],
      ['body.prices.3.meter_id', 'Meter is already used for another price.'],
    ]);
    const empty = await patch(product.id, { prices: [] });
    expect(json(empty).detail[0]).toMatchObject({ loc: ['body', 'prices'], type: 'too_short' });
  });

  it('archives and unarchives the product', async () => {
    const { product } = await productFactory(server, acme.organization.id);
    clock.advance(1000);
    const archived = json(await patch(product.id, { is_archived: true }));
    expect(archived.is_archived).toBe(true);
    expect(archived.prices).toHaveLength(1);
    expect(await lastEvent(acme.organization.id, product.id)).toEqual({ type: 'product.updated', data: archived });
    expect(json(await patch(product.id, { is_archived: false })).is_archived).toBe(false);
  });

  it('replaces attached custom fields when sent, keeps them when not', async () => {
    const field = await customFieldFactory(server, acme.organization.id);
    const { product } = await productFactory(server, acme.organization.id, {
      attached_custom_fields: [{ custom_field_id: field.id, required: true }],
    });
    expect(json(await patch(product.id, { name: 'Kept fields' })).attached_custom_fields).toHaveLength(1);
    const replaced = json(
      await patch(product.id, { attached_custom_fields: [{ custom_field_id: field.id, required: false }] }),
    );
    expect(replaced.attached_custom_fields).toEqual([
      expect.objectContaining({ custom_field_id: field.id, required: false, order: 0 }),
    ]);
    expect(json(await patch(product.id, { attached_custom_fields: [] })).attached_custom_fields).toEqual([]);
    const bad = await patch(product.id, { medias: [randomUUID()] });
    expect(json(bad).detail[0].loc).toEqual(['body', 'medias', 0]);
  });
});

describe('POST /v1/products/{id}/benefits', () => {
  it('replaces the benefits in the order given, with full Benefit objects, and records product.updated', async () => {
    const { product } = await productFactory(server, acme.organization.id);
    const first = await benefitFactory(server, acme.organization.id, { description: 'First benefit' });
    const second = await benefitFactory(server, acme.organization.id, { description: 'Second benefit' });
    clock.advance(1000);
    const response = await setBenefits(product.id, [second.id, first.id, second.id]);
    expect(response.statusCode).toBe(200);
    const updated = json(response);
    expect(updated.benefits).toEqual([
      {
        id: second.id,
        created_at: second.created_at.toISOString(),
        modified_at: null,
        type: 'custom',
        description: 'Second benefit',
        selectable: true,
        deletable: true,
        is_deleted: false,
        organization_id: acme.organization.id,
        metadata: {},
        visibility: 'public',
        properties: { note: null },
        visibility_configurable: false,
      },
      expect.objectContaining({ id: first.id, description: 'First benefit' }),
    ]);
    expect(updated.modified_at).toBe(clock.now().toISOString());
    expect(await lastEvent(acme.organization.id, updated.id)).toEqual({ type: 'product.updated', data: updated });
    expect(json(await get(product.id)).benefits.map((b: { id: string }) => b.id)).toEqual([second.id, first.id]);
    const fewer = json(await setBenefits(product.id, [first.id]));
    expect(fewer.benefits.map((b: { id: string }) => b.id)).toEqual([first.id]);
    expect(json(await setBenefits(product.id, [])).benefits).toEqual([]);
  });

  it("refuses another organization's, a deleted or an unknown benefit, and changes nothing", async () => {
    const { product } = await productFactory(server, acme.organization.id);
    const mine = await benefitFactory(server, acme.organization.id);
    expect((await setBenefits(product.id, [mine.id])).statusCode).toBe(200);
    const foreign = await benefitFactory(server, other.organization.id);
    const deleted = await benefitFactory(server, acme.organization.id, { deleted_at: clock.now() });
    const before = json(await get(product.id));
    const eventsBefore = (await counts(acme.organization.id)).events;
    const response = await setBenefits(product.id, [mine.id, foreign.id, deleted.id, randomUUID()]);
    expect(response.statusCode).toBe(422);
    expect(json(response).detail).toEqual([
      { loc: ['body', 'benefits', 1], msg: 'Benefit does not exist.', type: 'value_error' },
      { loc: ['body', 'benefits', 2], msg: 'Benefit does not exist.', type: 'value_error' },
      { loc: ['body', 'benefits', 3], msg: 'Benefit does not exist.', type: 'value_error' },
    ]);
    expect(json(await get(product.id))).toEqual(before);
    expect((await counts(acme.organization.id)).events).toBe(eventsBefore);
    expect(json(await setBenefits(product.id, ['nope'])).detail[0].loc).toEqual(['body', 'benefits', 0]);
  });

  it('answers 403 NotPermitted when a non-selectable benefit would be attached or detached', async () => {
    const { product } = await productFactory(server, acme.organization.id);
    const system = await benefitFactory(server, acme.organization.id, { selectable: false, deletable: false });
    const plain = await benefitFactory(server, acme.organization.id);
    const attach = await setBenefits(product.id, [system.id]);
    expect(attach.statusCode).toBe(403);
    expect(json(attach)).toEqual({ error: 'NotPermitted', detail: 'Benefit is not selectable.' });
    // Attached by the system (directly), it can then be kept but not removed.
    await server.runtime.database.db
      .insertInto('product_benefits')
      .values({ product_id: product.id, benefit_id: system.id, order: 0, created_at: clock.now() })
      .execute();
    expect((await setBenefits(product.id, [system.id, plain.id])).statusCode).toBe(200);
    const detach = await setBenefits(product.id, [plain.id]);
    expect(detach.statusCode).toBe(403);
    expect(json(await get(product.id)).benefits.map((b: { id: string }) => b.id)).toEqual([system.id, plain.id]);
  });
});

describe('GET /v1/products/', () => {
  let shop: OrganizationFixture;
  const ids: Record<string, string> = {};
  let benefitId: string;

  beforeAll(async () => {
    shop = await organizationFactory(server, { name: 'Shop' });
    const meter = await meterFactory(server, shop.organization.id);
    const benefit = await benefitFactory(server, shop.organization.id);
    benefitId = benefit.id;
    const make = async (key: string, input: Record<string, unknown>) => {
      clock.advance(1000);
      ids[key] = (await productFactory(server, shop.organization.id, { name: key, ...input })).product.id;
    };
    await make('Alpha fixed 3000', { prices: [fixedPrice(3000)] });
    await make('beta free monthly', { recurring_interval: 'month', prices: [freePrice()] });
    await make('Gamma custom 700', { prices: [customPrice({ minimum_amount: 700 })] });
    await make('delta metered', { recurring_interval: 'month', prices: [meteredPrice(meter.id)] });
    await make('Epsilon custom', { prices: [customPrice()] });
    await make('zeta fixed 100', { recurring_interval: 'year', prices: [fixedPrice(100)] });
    await patch(ids['Epsilon custom']!, { is_archived: true }, bearer(shop.token));
    await setBenefits(ids['Alpha fixed 3000']!, [benefit.id], bearer(shop.token));
    await setBenefits(ids['delta metered']!, [benefit.id], bearer(shop.token));
  });

  const names = async (query: string) => {
    const response = await list(query, bearer(shop.token));
    expect(response.statusCode, response.body).toBe(200);
    return json(response).items.map((p: { name: string }) => p.name) as string[];
  };
  const all = 'limit=100';

  it('sorts by -created_at by default', async () => {
    expect(await names(`?${all}`)).toEqual([
      'zeta fixed 100',
      'Epsilon custom',
      'delta metered',
      'Gamma custom 700',
      'beta free monthly',
      'Alpha fixed 3000',
    ]);
  });

  it('sorts by name, created_at, and both directions', async () => {
    const byName = await names(`?${all}&sorting=name`);
    expect(await names(`?${all}&sorting=-name`)).toEqual([...byName].reverse());
    expect((await names(`?${all}&sorting=created_at`))[0]).toBe('Alpha fixed 3000');
  });

  it('sorts by price_amount_type: free < custom < fixed < metered', async () => {
    const ascending = await names(`?${all}&sorting=price_amount_type&sorting=created_at`);
    expect(ascending).toEqual([
      'beta free monthly',
      'Gamma custom 700',
      'Epsilon custom',
      'Alpha fixed 3000',
      'zeta fixed 100',
      'delta metered',
    ]);
    const descending = await names(`?${all}&sorting=-price_amount_type&sorting=created_at`);
    expect(descending).toEqual([
      'delta metered',
      'Alpha fixed 3000',
      'zeta fixed 100',
      'Gamma custom 700',
      'Epsilon custom',
      'beta free monthly',
    ]);
  });

  it('sorts by price_amount of the first price: free −2, custom minimum (−1 unset), fixed amount, metered last', async () => {
    expect(await names(`?${all}&sorting=price_amount`)).toEqual([
      'beta free monthly',
      'Epsilon custom',
      'zeta fixed 100',
      'Gamma custom 700',
      'Alpha fixed 3000',
      'delta metered',
    ]);
    expect(await names(`?${all}&sorting=-price_amount`)).toEqual([
      'delta metered',
      'Alpha fixed 3000',
      'Gamma custom 700',
      'zeta fixed 100',
      'Epsilon custom',
      'beta free monthly',
    ]);
  });

  it('keeps the price sort keys in step with price changes', async () => {
    const { product } = await productFactory(server, shop.organization.id, {
      name: 'moving',
      prices: [fixedPrice(5000)],
    });
    expect((await names(`?${all}&sorting=-price_amount&is_archived=false&is_recurring=false`))[0]).toBe('moving');
    clock.advance(1000);
    await patch(product.id, { prices: [fixedPrice(60)] }, bearer(shop.token));
    const ascending = await names(`?${all}&sorting=price_amount&is_recurring=false&is_archived=false`);
    expect(ascending.indexOf('moving')).toBe(ascending.indexOf('Gamma custom 700') - 1);
    await patch(product.id, { is_archived: true }, bearer(shop.token));
  });

  it('filters by is_archived, is_recurring, query, id, benefit_id and organization_id', async () => {
    expect(await names(`?${all}&is_archived=true`)).toEqual(['moving', 'Epsilon custom']);
    expect(await names(`?${all}&is_recurring=true&sorting=name`)).toEqual([
      'beta free monthly',
      'delta metered',
      'zeta fixed 100',
    ]);
    expect(await names(`?${all}&query=CUSTOM&sorting=name`)).toEqual(['Epsilon custom', 'Gamma custom 700']);
    expect(await names(`?${all}&query=%25`)).toEqual([]);
    expect(await names(`?id=${ids['Gamma custom 700']}`)).toEqual(['Gamma custom 700']);
    expect(await names(`?id=${ids['Gamma custom 700']}&id=${ids['zeta fixed 100']}&sorting=name`)).toEqual([
      'Gamma custom 700',
      'zeta fixed 100',
    ]);
    expect(await names(`?benefit_id=${benefitId}&sorting=name`)).toEqual(['Alpha fixed 3000', 'delta metered']);
    expect(await names(`?benefit_id=${randomUUID()}`)).toEqual([]);
    expect(await names(`?organization_id=${acme.organization.id}`)).toEqual([]);
    expect((await names(`?organization_id=${shop.organization.id}&${all}`)).length).toBe(7);
  });

  it('pages through more than one page', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const body = json(await list(`?limit=3&page=${page}&sorting=name`, bearer(shop.token)));
      expect(body.pagination).toEqual({ total_count: 7, max_page: 3 });
      seen.push(...body.items.map((p: { name: string }) => p.name));
    }
    expect(seen).toEqual(await names(`?${all}&sorting=name`));
    expect(json(await list('?limit=3&page=9', bearer(shop.token)))).toEqual({
      items: [],
      pagination: { total_count: 7, max_page: 3 },
    });
  });

  it('rejects unknown sorting keys and malformed filters', async () => {
    const sorting = await list('?sorting=price', bearer(shop.token));
    expect(sorting.statusCode).toBe(422);
    expect(json(sorting).detail[0].loc.slice(0, 2)).toEqual(['query', 'sorting']);
    const id = await list('?id=nope', bearer(shop.token));
    expect(json(id).detail[0].loc).toEqual(['query', 'id', 0]);
  });
});
