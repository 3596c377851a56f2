import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customFieldFactory, uniqueFieldSlug } from './factories/custom-fields.js';
import { organizationFactory, tokenFactory, uniqueSlug, type OrganizationFixture } from './factories/organizations.js';
import { userFactory, type UserFixture } from './factories/users.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';
import type { ManualClock } from '../src/platform/clock.js';

const START = '2026-01-15T12:00:00.000Z';
const clock = () => server.clock as ManualClock;

let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
});
afterAll(() => server?.stop());

type Headers = Record<string, string>;
const list = (query: string, headers: Headers) =>
  server.inject({ method: 'GET', url: `/v1/custom-fields/${query ? `?${query}` : ''}`, headers });
const create = (payload: unknown, headers: Headers) =>
  server.inject({ method: 'POST', url: '/v1/custom-fields/', headers, payload: payload as object });
const get = (id: string, headers: Headers) => server.inject({ method: 'GET', url: `/v1/custom-fields/${id}`, headers });
const patch = (id: string, payload: unknown, headers: Headers) =>
  server.inject({ method: 'PATCH', url: `/v1/custom-fields/${id}`, headers, payload: payload as object });
const del = (id: string, headers: Headers) =>
  server.inject({ method: 'DELETE', url: `/v1/custom-fields/${id}`, headers });

async function rowsOf(organizationId: string) {
  return server.runtime.database.db
    .selectFrom('custom_fields')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .execute();
}

async function countEvents(organizationId: string): Promise<number> {
  const row = await server.runtime.database.db
    .selectFrom('webhook_events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const locs = (response: LightMyRequestResponse) =>
  json(response).detail.map((d: { loc: unknown[] }) => d.loc.join('.'));

function expectValidationShape(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(422);
  const body = json(response);
  expect(body.error).toBe('RequestValidationError');
  expect(body.detail.length).toBeGreaterThan(0);
  for (const issue of body.detail) {
    expect(Object.keys(issue).sort()).toEqual(['loc', 'msg', 'type']);
    expect(Array.isArray(issue.loc)).toBe(true);
    expect(typeof issue.msg).toBe('string');
    expect(typeof issue.type).toBe('string');
  }
}

const textField = (slug = uniqueFieldSlug('text')) => ({
  type: 'text',
  slug,
  name: 'Company',
  properties: { form_label: 'Company', textarea: false, min_length: 1, max_length: 100 },
});

describe('auth matrix', () => {
  it('answers 401 without a token on every route', async () => {
    const field = await customFieldFactory(server, acme.organization.id);
    for (const response of [
      await list('', {}),
      await create(textField(), {}),
      await get(field.id, {}),
      await patch(field.id, { name: 'x' }, {}),
      await del(field.id, {}),
    ]) {
      expect(response.statusCode).toBe(401);
      expect(json(response)).toEqual({ error: 'Unauthorized', detail: 'Unauthorized' });
    }
    expect(json(await get(field.id, bearer(acme.token))).id).toBe(field.id);
  });

  it('answers 403 insufficient_scope when the token lacks the scope', async () => {
    const field = await customFieldFactory(server, acme.organization.id);
    const reader = await tokenFactory(server, acme.organization.id, ['custom_fields:read']);
    expect((await list('', bearer(reader))).statusCode).toBe(200);
    expect((await get(field.id, bearer(reader))).statusCode).toBe(200);
    for (const response of [
      await create(textField(), bearer(reader)),
      await patch(field.id, { name: 'Nope' }, bearer(reader)),
      await del(field.id, bearer(reader)),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(json(response).error).toBe('insufficient_scope');
    }
    const unrelated = await tokenFactory(server, acme.organization.id, ['products:read', 'products:write']);
    for (const response of [
      await list('', bearer(unrelated)),
      await get(field.id, bearer(unrelated)),
      await create(textField(), bearer(unrelated)),
      await patch(field.id, { name: 'Nope' }, bearer(unrelated)),
      await del(field.id, bearer(unrelated)),
    ]) {
      expect(response.statusCode).toBe(403);
    }
    expect(json(await get(field.id, bearer(acme.token))).name).toBe(field.name);
  });

  it('accepts the write scope where read is required', async () => {
    const field = await customFieldFactory(server, acme.organization.id);
    const writer = await tokenFactory(server, acme.organization.id, ['custom_fields:write']);
    expect((await get(field.id, bearer(writer))).statusCode).toBe(200);
    expect((await list('', bearer(writer))).statusCode).toBe(200);
  });

  it("answers 404 for another organization's field, and changes nothing", async () => {
    const theirs = await customFieldFactory(server, other.organization.id, { name: 'Theirs' });
    for (const response of [
      await get(theirs.id, bearer(acme.token)),
      await patch(theirs.id, { type: 'text', name: 'Hijacked' }, bearer(acme.token)),
      await del(theirs.id, bearer(acme.token)),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(json(response)).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    }
    const listed = json(await list('limit=100', bearer(acme.token)));
    expect(listed.items.some((f: { id: string }) => f.id === theirs.id)).toBe(false);
    const filtered = json(await list(`organization_id=${other.organization.id}`, bearer(acme.token)));
    expect(filtered.items).toEqual([]);
    const after = json(await get(theirs.id, bearer(other.token)));
    expect(after).toMatchObject({ name: 'Theirs', modified_at: null });
  });

  it('answers 422 for a bad body on create, and creates nothing', async () => {
    const before = await rowsOf(acme.organization.id);
    const eventsBefore = await countEvents(acme.organization.id);
    const response = await create(
      { type: 'select', slug: 'not a slug', name: '', properties: { options: [] }, metadata: { '': 'x' } },
      bearer(acme.token),
    );
    expectValidationShape(response);
    expect(locs(response).sort()).toEqual(['body.metadata.', 'body.name', 'body.properties.options', 'body.slug']);
    expect(await rowsOf(acme.organization.id)).toEqual(before);
    expect(await countEvents(acme.organization.id)).toBe(eventsBefore);
  });

  it('answers 422 for a bad body on update, and changes nothing', async () => {
    const field = await customFieldFactory(server, acme.organization.id, {
      type: 'number',
      properties: { ge: 0, le: 10 },
    });
    const before = json(await get(field.id, bearer(acme.token)));
    const response = await patch(
      field.id,
      { type: 'text', name: 'Renamed', properties: { ge: 5, le: 1 } },
      bearer(acme.token),
    );
    expectValidationShape(response);
    expect(locs(response)).toEqual(['body.type', 'body.properties.le']);
    expect(json(await get(field.id, bearer(acme.token)))).toEqual(before);
  });

  it('answers 422 for an id that is not a UUID', async () => {
    for (const response of [
      await get('not-a-uuid', bearer(acme.token)),
      await patch('not-a-uuid', { name: 'x' }, bearer(acme.token)),
      await del('not-a-uuid', bearer(acme.token)),
    ]) {
      expectValidationShape(response);
      expect(json(response).detail[0].loc).toEqual(['path', 'id']);
    }
  });
});

describe('POST /v1/custom-fields/', () => {
  it.each([
    [
      'text',
      {
        form_label: 'Company',
        form_help_text: 'Legal name',
        form_placeholder: 'Acme',
        textarea: true,
        min_length: 0,
        max_length: 50,
      },
    ],
    ['number', { form_label: 'Seats', ge: 1, le: 100 }],
    ['date', { ge: 1704067200, le: 1735689600 }],
    ['checkbox', { form_label: 'I accept the terms' }],
    [
      'select',
      {
        options: [
          { value: 'small', label: 'Small' },
          { value: 'large', label: 'Large' },
        ],
      },
    ],
  ])('creates a %s field', async (type, properties) => {
    const slug = uniqueFieldSlug(type);
    const response = await create(
      { type, slug, name: `A ${type}`, properties, metadata: { source: 'test', rank: 2 } },
      bearer(acme.token),
    );
    expect(response.statusCode).toBe(201);
    const body = json(response);
    expect(body).toEqual({
      created_at: '2026-01-15T12:00:00.000Z',
      modified_at: null,
      id: expect.any(String),
      metadata: { source: 'test', rank: 2 },
      type,
      slug,
      name: `A ${type}`,
      organization_id: acme.organization.id,
      properties,
    });
    expect(json(await get(body.id, bearer(acme.token)))).toEqual(body);
  });

  it('lower-cases the slug and defaults metadata to {}', async () => {
    const slug = uniqueFieldSlug('Mixed_Case');
    const response = await create(
      { type: 'checkbox', slug: slug.toUpperCase(), name: 'Terms', properties: {} },
      bearer(acme.token),
    );
    expect(response.statusCode).toBe(201);
    expect(json(response)).toMatchObject({ slug: slug.toLowerCase(), metadata: {}, properties: {} });
  });

  it.each([
    ['name missing', { name: undefined }, 'body.name', 'missing'],
    ['name empty', { name: '' }, 'body.name', 'string_too_short'],
    ['slug missing', { slug: undefined }, 'body.slug', 'missing'],
    ['slug empty', { slug: '' }, 'body.slug', 'string_too_short'],
    ['slug with a space', { slug: 'two words' }, 'body.slug', undefined],
    ['slug with a dot', { slug: 'a.b' }, 'body.slug', undefined],
    ['slug not ASCII', { slug: 'café' }, 'body.slug', undefined],
    ['type missing', { type: undefined }, 'body.type', undefined],
    ['type unknown', { type: 'color' }, 'body.type', undefined],
    ['properties missing', { properties: undefined }, 'body.properties', 'missing'],
    ['properties of another type', { properties: { ge: 1 } }, 'body.properties', 'extra_forbidden'],
    ['form_label empty', { properties: { form_label: '' } }, 'body.properties.form_label', 'string_too_short'],
    [
      'form_help_text not a string',
      { properties: { form_help_text: 3 } },
      'body.properties.form_help_text',
      'string_type',
    ],
    ['textarea not a boolean', { properties: { textarea: 'yes' } }, 'body.properties.textarea', 'boolean_type'],
    ['min_length negative', { properties: { min_length: -1 } }, 'body.properties.min_length', 'greater_than_equal'],
    ['max_length fractional', { properties: { max_length: 1.5 } }, 'body.properties.max_length', undefined],
    [
      'min_length above max_length',
      { properties: { min_length: 5, max_length: 4 } },
      'body.properties.max_length',
      'value_error',
    ],
    ['metadata value too long', { metadata: { k: 'x'.repeat(501) } }, 'body.metadata.k', undefined],
    [
      'organization_id with an organization token',
      { organization_id: '00000000-0000-4000-8000-000000000000' },
      'body.organization_id',
      'organization_token',
    ],
  ])('rejects a text field with %s', async (_name, change, loc, type) => {
    const payload: Record<string, unknown> = { ...textField(), ...change };
    for (const [key, value] of Object.entries(change)) if (value === undefined) delete payload[key];
    const response = await create(payload, bearer(acme.token));
    expectValidationShape(response);
    expect(locs(response)).toContain(loc);
    if (type) expect(json(response).detail.find((d: { loc: unknown[] }) => d.loc.join('.') === loc).type).toBe(type);
  });

  it.each([
    ['number', { ge: 5, le: 4 }, 'body.properties.le'],
    ['number', { ge: 1.5 }, 'body.properties.ge'],
    ['number', { textarea: true }, 'body.properties'],
    ['date', { ge: 10, le: 0 }, 'body.properties.le'],
    ['date', { le: 'tomorrow' }, 'body.properties.le'],
    ['checkbox', { options: [{ value: 'a', label: 'A' }] }, 'body.properties'],
    ['select', {}, 'body.properties.options'],
    ['select', { options: [] }, 'body.properties.options'],
    ['select', { options: [{ value: '', label: 'Empty' }] }, 'body.properties.options.0.value'],
    ['select', { options: [{ value: 'a', label: '' }] }, 'body.properties.options.0.label'],
    ['select', { options: [{ value: 'a' }] }, 'body.properties.options.0.label'],
    [
      'select',
      {
        options: [
          { value: 'a', label: 'A' },
          { value: 'a', label: 'Again' },
        ],
      },
      'body.properties.options.1.value',
    ],
  ])('rejects a %s field with properties %j', async (type, properties, loc) => {
    const response = await create({ type, slug: uniqueFieldSlug(), name: 'Bad', properties }, bearer(acme.token));
    expectValidationShape(response);
    expect(locs(response)).toEqual([loc]);
  });

  it('accepts min_length equal to max_length and ge equal to le', async () => {
    const text = await create({ ...textField(), properties: { min_length: 3, max_length: 3 } }, bearer(acme.token));
    expect(text.statusCode).toBe(201);
    const number = await create(
      { type: 'number', slug: uniqueFieldSlug(), name: 'N', properties: { ge: -5, le: -5 } },
      bearer(acme.token),
    );
    expect(number.statusCode).toBe(201);
  });

  it('rejects a slug already used in the organization, whatever its case', async () => {
    const existing = await customFieldFactory(server, acme.organization.id);
    const response = await create({ ...textField(existing.slug.toUpperCase()) }, bearer(acme.token));
    expectValidationShape(response);
    expect(json(response).detail).toEqual([
      { loc: ['body', 'slug'], msg: 'Custom field with this slug already exists.', type: 'value_error' },
    ]);
    // Another organization may use it.
    expect((await create(textField(existing.slug), bearer(other.token))).statusCode).toBe(201);
  });

  it("lets a member user create for an organization they name, and nobody else's", async () => {
    const user: UserFixture = await userFactory(server);
    const org = json(
      await server.inject({
        method: 'POST',
        url: '/v1/organizations/',
        headers: user.headers,
        payload: { name: 'Mine', slug: uniqueSlug('mine') },
      }),
    );
    const missing = await create(textField(), user.headers);
    expectValidationShape(missing);
    expect(json(missing).detail[0]).toMatchObject({ loc: ['body', 'organization_id'], type: 'missing' });
    const foreign = await create({ ...textField(), organization_id: acme.organization.id }, user.headers);
    expectValidationShape(foreign);
    expect(locs(foreign)).toEqual(['body.organization_id']);
    const created = await create({ ...textField(), organization_id: org.id }, user.headers);
    expect(created.statusCode).toBe(201);
    expect(json(created).organization_id).toBe(org.id);
    expect((await get(json(created).id, { cookie: user.cookie })).statusCode).toBe(200);
    expect((await get(json(created).id, bearer(acme.token))).statusCode).toBe(404);
  });

  it('records no webhook event (none exists for custom fields)', async () => {
    const before = await countEvents(acme.organization.id);
    const created = json(await create(textField(), bearer(acme.token)));
    await patch(created.id, { name: 'Changed' }, bearer(acme.token));
    await del(created.id, bearer(acme.token));
    expect(await countEvents(acme.organization.id)).toBe(before);
  });
});

describe('GET /v1/custom-fields/', () => {
  let org: OrganizationFixture;
  const fields: { slug: string; name: string; type: string; id: string; created_at: string }[] = [];

  beforeAll(async () => {
    org = await organizationFactory(server, { name: 'Lister' });
    const specs = [
      { slug: 'delta', name: 'bravo', type: 'text', properties: {} },
      { slug: 'alpha', name: 'echo', type: 'number', properties: {} },
      { slug: 'charlie', name: 'alpha', type: 'select', properties: { options: [{ value: 'x', label: 'X' }] } },
      { slug: 'echo_field', name: 'delta', type: 'checkbox', properties: {} },
      { slug: 'bravo', name: 'charlie', type: 'date', properties: {} },
    ] as const;
    for (const [index, spec] of specs.entries()) {
      clock().set(new Date(Date.UTC(2026, 0, 15, 12, 0, 5 - index)));
      const row = await customFieldFactory(server, org.organization.id, {
        ...spec,
        properties: spec.properties as never,
      });
      fields.push({
        slug: row.slug,
        name: row.name,
        type: row.type,
        id: row.id,
        created_at: row.created_at.toISOString(),
      });
    }
    clock().set(START);
  });

  const slugsOf = (response: LightMyRequestResponse) => json(response).items.map((f: { slug: string }) => f.slug);
  const sortedBy = (key: 'slug' | 'name' | 'type', descending = false) => {
    const out = [...fields].sort((a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.id < b.id ? -1 : 1));
    return (descending ? out.reverse() : out).map((f) => f.slug);
  };

  it('sorts by slug by default', async () => {
    const response = await list('', bearer(org.token));
    expect(response.statusCode).toBe(200);
    expect(slugsOf(response)).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo_field']);
    expect(json(response).pagination).toEqual({ total_count: 5, max_page: 1 });
  });

  it.each(['slug', 'name', 'type'] as const)('sorts by %s, ascending and descending', async (key) => {
    expect(slugsOf(await list(`sorting=${key}`, bearer(org.token)))).toEqual(sortedBy(key));
    expect(slugsOf(await list(`sorting=-${key}`, bearer(org.token)))).toEqual(sortedBy(key, true));
  });

  it('sorts by created_at', async () => {
    const ascending = slugsOf(await list('sorting=created_at', bearer(org.token)));
    const descending = slugsOf(await list('sorting=-created_at', bearer(org.token)));
    expect(descending).toEqual([...ascending].reverse());
    expect(ascending).toEqual(
      [...fields].sort((a, b) => a.created_at.localeCompare(b.created_at) || (a.id < b.id ? -1 : 1)).map((f) => f.slug),
    );
  });

  it('applies several sort keys in order', async () => {
    const response = await list('sorting=-type&sorting=slug', bearer(org.token));
    expect(slugsOf(response)).toEqual(sortedBy('type', true));
  });

  it('pages across more than one page', async () => {
    const page1 = json(await list('limit=2&page=1', bearer(org.token)));
    const page2 = json(await list('limit=2&page=2', bearer(org.token)));
    const page3 = json(await list('limit=2&page=3', bearer(org.token)));
    expect(page1.pagination).toEqual({ total_count: 5, max_page: 3 });
    expect(page3.pagination).toEqual({ total_count: 5, max_page: 3 });
    const seen = [...page1.items, ...page2.items, ...page3.items].map((f: { slug: string }) => f.slug);
    expect(seen).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo_field']);
    expect(page3.items).toHaveLength(1);
    expect(json(await list('limit=2&page=9', bearer(org.token)))).toEqual({
      items: [],
      pagination: { total_count: 5, max_page: 3 },
    });
  });

  it('filters by type, one or several', async () => {
    expect(slugsOf(await list('type=text', bearer(org.token)))).toEqual(['delta']);
    expect(slugsOf(await list('type=select&type=date', bearer(org.token)))).toEqual(['bravo', 'charlie']);
  });

  it('filters by a query contained in the name or the slug, case-insensitively', async () => {
    expect(slugsOf(await list('query=ALP', bearer(org.token)))).toEqual(['alpha', 'charlie']);
    expect(slugsOf(await list('query=o_f', bearer(org.token)))).toEqual(['echo_field']);
    // `_` and `%` are literal characters, not patterns.
    expect(slugsOf(await list('query=a_p', bearer(org.token)))).toEqual([]);
    expect(slugsOf(await list('query=%25', bearer(org.token)))).toEqual([]);
  });

  it('filters by organization, one or several, for a member user', async () => {
    const user = await userFactory(server);
    const ids: string[] = [];
    for (const name of ['One', 'Two']) {
      const created = json(
        await server.inject({
          method: 'POST',
          url: '/v1/organizations/',
          headers: user.headers,
          payload: { name, slug: uniqueSlug(name.toLowerCase()) },
        }),
      );
      ids.push(created.id);
      await create({ ...textField(`${name.toLowerCase()}-field`), organization_id: created.id }, user.headers);
    }
    const headers = { cookie: user.cookie };
    expect(slugsOf(await list('', headers))).toEqual(['one-field', 'two-field']);
    expect(slugsOf(await list(`organization_id=${ids[1]}`, headers))).toEqual(['two-field']);
    expect(slugsOf(await list(`organization_id=${ids[0]}&organization_id=${ids[1]}`, headers))).toEqual([
      'one-field',
      'two-field',
    ]);
  });

  it('rejects bad query parameters with one 422', async () => {
    const response = await list('sorting=color&type=color&limit=101&page=0&organization_id=nope', bearer(org.token));
    expectValidationShape(response);
    expect(locs(response)).toEqual(
      expect.arrayContaining([
        'query.sorting.0',
        'query.type.0',
        'query.limit',
        'query.page',
        'query.organization_id.0',
      ]),
    );
  });
});

describe('PATCH /v1/custom-fields/{id}', () => {
  it('updates name, slug, properties and metadata, and stamps modified_at', async () => {
    const field = await customFieldFactory(server, acme.organization.id, {
      type: 'select',
      properties: { options: [{ value: 'a', label: 'A' }] },
      metadata: { keep: 'no' },
    });
    const slug = uniqueFieldSlug('Renamed');
    const response = await patch(
      field.id,
      {
        type: 'select',
        name: 'Plan',
        slug: slug.toUpperCase(),
        properties: { form_label: 'Plan', options: [{ value: 'b', label: 'B' }] },
        metadata: { replaced: true },
      },
      bearer(acme.token),
    );
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({
      id: field.id,
      type: 'select',
      name: 'Plan',
      slug: slug.toLowerCase(),
      properties: { form_label: 'Plan', options: [{ value: 'b', label: 'B' }] },
      metadata: { replaced: true },
      modified_at: '2026-01-15T12:00:00.000Z',
    });
    expect(json(await get(field.id, bearer(acme.token)))).toEqual(json(response));
  });

  it('leaves keys that are absent or null unchanged, and the type may be omitted', async () => {
    const field = await customFieldFactory(server, acme.organization.id, {
      type: 'number',
      properties: { ge: 1 },
      metadata: { a: 1 },
    });
    const response = await patch(field.id, { name: null, slug: null, properties: null }, bearer(acme.token));
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({
      name: field.name,
      slug: field.slug,
      properties: { ge: 1 },
      metadata: { a: 1 },
    });
    const renamed = await patch(field.id, { name: 'Seats' }, bearer(acme.token));
    expect(json(renamed)).toMatchObject({ name: 'Seats', type: 'number', properties: { ge: 1 } });
  });

  it('refuses to change the type', async () => {
    const field = await customFieldFactory(server, acme.organization.id, { type: 'checkbox' });
    const response = await patch(field.id, { type: 'text', properties: {} }, bearer(acme.token));
    expectValidationShape(response);
    expect(json(response).detail).toEqual([
      { loc: ['body', 'type'], msg: "The type of a custom field can't be changed.", type: 'value_error' },
    ]);
    expect(json(await get(field.id, bearer(acme.token))).type).toBe('checkbox');
    const unknown = await patch(field.id, { type: 'color' }, bearer(acme.token));
    expectValidationShape(unknown);
    expect(locs(unknown)).toEqual(['body.type']);
  });

  it.each([
    ['text', {}, { ge: 1 }, 'body.properties'],
    ['text', {}, { min_length: 4, max_length: 3 }, 'body.properties.max_length'],
    ['text', {}, { min_length: -1 }, 'body.properties.min_length'],
    ['number', {}, { ge: 2, le: 1 }, 'body.properties.le'],
    ['date', {}, { ge: 'yesterday' }, 'body.properties.ge'],
    ['checkbox', {}, { textarea: true }, 'body.properties'],
    ['select', { options: [{ value: 'a', label: 'A' }] }, {}, 'body.properties.options'],
    ['select', { options: [{ value: 'a', label: 'A' }] }, { options: [] }, 'body.properties.options'],
    [
      'select',
      { options: [{ value: 'a', label: 'A' }] },
      {
        options: [
          { value: 'b', label: 'B' },
          { value: 'b', label: 'B2' },
        ],
      },
      'body.properties.options.1.value',
    ],
  ])('validates %s properties against the field type (%j → %j)', async (type, initial, properties, loc) => {
    const field = await customFieldFactory(server, acme.organization.id, {
      type: type as never,
      properties: initial as never,
    });
    const response = await patch(field.id, { properties }, bearer(acme.token));
    expectValidationShape(response);
    expect(locs(response)).toEqual([loc]);
    expect(json(await get(field.id, bearer(acme.token))).properties).toEqual(initial);
  });

  it.each([
    ['name empty', { name: '' }, 'body.name'],
    ['slug with a space', { slug: 'a b' }, 'body.slug'],
    ['slug empty', { slug: '' }, 'body.slug'],
    ['metadata not an object', { metadata: 'x' }, 'body.metadata'],
    ['properties not an object', { properties: [1] }, 'body.properties'],
  ])('rejects %s', async (_name, payload, loc) => {
    const field = await customFieldFactory(server, acme.organization.id);
    const response = await patch(field.id, payload, bearer(acme.token));
    expectValidationShape(response);
    expect(locs(response)).toEqual([loc]);
  });

  it("rejects a slug taken by another of the organization's fields, not its own", async () => {
    const taken = await customFieldFactory(server, acme.organization.id);
    const field = await customFieldFactory(server, acme.organization.id);
    const response = await patch(field.id, { slug: taken.slug.toUpperCase() }, bearer(acme.token));
    expectValidationShape(response);
    expect(json(response).detail).toEqual([
      { loc: ['body', 'slug'], msg: 'Custom field with this slug already exists.', type: 'value_error' },
    ]);
    const own = await patch(field.id, { slug: field.slug.toUpperCase() }, bearer(acme.token));
    expect(own.statusCode).toBe(200);
    expect(json(own).slug).toBe(field.slug);
  });
});

describe('DELETE /v1/custom-fields/{id}', () => {
  it('soft-deletes: 204, then gone from get, update, delete and lists; the row remains', async () => {
    const field = await customFieldFactory(server, acme.organization.id);
    const response = await del(field.id, bearer(acme.token));
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await get(field.id, bearer(acme.token))).statusCode).toBe(404);
    expect((await patch(field.id, { name: 'Back' }, bearer(acme.token))).statusCode).toBe(404);
    expect((await del(field.id, bearer(acme.token))).statusCode).toBe(404);
    const listed = json(await list(`query=${field.slug}`, bearer(acme.token)));
    expect(listed.items).toEqual([]);
    const row = (await rowsOf(acme.organization.id)).find((r) => r.id === field.id);
    expect(row?.deleted_at?.toISOString()).toBe('2026-01-15T12:00:00.000Z');
  });

  it('keeps the slug taken after deletion (stored answers are keyed by slug)', async () => {
    const field = await customFieldFactory(server, acme.organization.id);
    expect((await create(textField(field.slug), bearer(acme.token))).statusCode).toBe(422);
    await del(field.id, bearer(acme.token));
    const again = await create(textField(field.slug), bearer(acme.token));
    expect(again.statusCode).toBe(422);
    expect(json(again).detail[0].loc).toEqual(['body', 'slug']);
  });
});
