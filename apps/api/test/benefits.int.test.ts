import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/platform/clock.js';
import { signGuildToken } from '../src/modules/benefits/benefits.properties.js';
import { findBenefitsByIds, findBenefitsOfProducts } from '../src/modules/benefits/benefits.repository.js';
import { serializeBenefit } from '../src/modules/benefits/benefits.serializer.js';
import { benefitFactory, grantFactory, guildToken, meterFactory, propertiesFor } from './factories/benefits.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { userFactory } from './factories/users.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
let clock: ManualClock;
let acme: OrganizationFixture;
let other: OrganizationFixture;
let meterId: string;

const TYPES = ['custom', 'discord', 'github_repository', 'downloadables', 'license_keys', 'meter_credit'] as const;

beforeAll(async () => {
  clock = new ManualClock('2026-01-15T12:00:00.000Z');
  server = await startTestServer({ clock });
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
  // Meter credits need usage-based billing (as the reference did at the pinned version).
  const enabled = await server.inject({
    method: 'PATCH',
    url: `/v1/organizations/${acme.organization.id}`,
    headers: bearer(acme.token),
    payload: { feature_settings: { usage_based_billing_enabled: true } },
  });
  expect(enabled.statusCode).toBe(200);
  meterId = (await meterFactory(server, acme.organization.id)).id;
});
afterAll(() => server?.stop());

const tick = () => clock.advance(1000);

const create = (payload: unknown, headers: Record<string, string> = bearer(acme.token)) =>
  server.inject({ method: 'POST', url: '/v1/benefits/', headers, payload: payload as object });
const get = (id: string, headers: Record<string, string> = bearer(acme.token)) =>
  server.inject({ method: 'GET', url: `/v1/benefits/${id}`, headers });
const patch = (id: string, payload: unknown, headers: Record<string, string> = bearer(acme.token)) =>
  server.inject({ method: 'PATCH', url: `/v1/benefits/${id}`, headers, payload: payload as object });
const del = (id: string, headers: Record<string, string> = bearer(acme.token)) =>
  server.inject({ method: 'DELETE', url: `/v1/benefits/${id}`, headers });
const list = (query: string, headers: Record<string, string> = bearer(acme.token)) =>
  server.inject({ method: 'GET', url: `/v1/benefits/${query}`, headers });
const grants = (id: string, query = '', headers: Record<string, string> = bearer(acme.token)) =>
  server.inject({ method: 'GET', url: `/v1/benefits/${id}/grants${query}`, headers });

async function counts(organizationId: string): Promise<{ benefits: number; events: number }> {
  const db = server.runtime.database.db;
  const benefits = await db
    .selectFrom('benefits')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const events = await db
    .selectFrom('webhook_events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return { benefits: Number(benefits.n), events: Number(events.n) };
}

async function events(organizationId: string) {
  return server.runtime.database.db
    .selectFrom('webhook_events')
    .select(['type', 'payload'])
    .where('organization_id', '=', organizationId)
    .where('type', 'like', 'benefit.%')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Expects a 422 in the validation shape that wrote nothing; returns the issues. */
async function expectRejected(
  send: () => Promise<{ statusCode: number; body: string }>,
  organizationId = acme.organization.id,
): Promise<{ loc: (string | number)[]; msg: string; type: string }[]> {
  const before = await counts(organizationId);
  const response = await send();
  expect(response.statusCode, response.body).toBe(422);
  const body = json(response as never);
  expect(body.error).toBe('RequestValidationError');
  for (const issue of body.detail) expect(Object.keys(issue).sort()).toEqual(['loc', 'msg', 'type']);
  expect(await counts(organizationId)).toEqual(before);
  return body.detail;
}

const customBody = (extra: Record<string, unknown> = {}) => ({
  type: 'custom',
  description: 'Priority support',
  properties: { note: 'Email us' },
  ...extra,
});

describe('auth matrix', () => {
  let benefitId: string;
  beforeAll(async () => {
    benefitId = (await benefitFactory(server, acme.organization.id)).id;
  });

  it('answers 401 without a token on every route', async () => {
    for (const response of [
      await list('', {}),
      await create(customBody(), {}),
      await get(benefitId, {}),
      await patch(benefitId, { type: 'custom' }, {}),
      await del(benefitId, {}),
      await grants(benefitId, '', {}),
    ]) {
      expect(response.statusCode).toBe(401);
      expect(json(response)).toEqual({ error: 'Unauthorized', detail: 'Unauthorized' });
    }
  });

  it('answers 403 insufficient_scope when the token lacks the scope', async () => {
    const readOnly = await tokenFactory(server, acme.organization.id, ['benefits:read']);
    expect((await list('', bearer(readOnly))).statusCode).toBe(200);
    expect((await get(benefitId, bearer(readOnly))).statusCode).toBe(200);
    expect((await grants(benefitId, '', bearer(readOnly))).statusCode).toBe(200);
    const before = await counts(acme.organization.id);
    for (const response of [
      await create(customBody(), bearer(readOnly)),
      await patch(benefitId, { type: 'custom', description: 'Changed' }, bearer(readOnly)),
      await del(benefitId, bearer(readOnly)),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(json(response).error).toBe('insufficient_scope');
    }
    expect(await counts(acme.organization.id)).toEqual(before);
    const unrelated = await tokenFactory(server, acme.organization.id, ['products:read']);
    for (const response of [
      await list('', bearer(unrelated)),
      await get(benefitId, bearer(unrelated)),
      await grants(benefitId, '', bearer(unrelated)),
    ]) {
      expect(response.statusCode).toBe(403);
    }
    const writer = await tokenFactory(server, acme.organization.id, ['benefits:write']);
    expect((await get(benefitId, bearer(writer))).statusCode).toBe(200);
  });

  it("answers 404 for another organization's benefit and changes nothing", async () => {
    const foreign = await benefitFactory(server, other.organization.id, { description: 'Foreign' });
    const before = await counts(other.organization.id);
    for (const response of [
      await get(foreign.id),
      await patch(foreign.id, { type: 'custom', description: 'Hijacked' }),
      await del(foreign.id),
      await grants(foreign.id),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(json(response)).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    }
    expect(await counts(other.organization.id)).toEqual(before);
    expect(json(await get(foreign.id, bearer(other.token))).description).toBe('Foreign');
    // Another organization's benefits never show in a list, even when asked for by organization.
    const listed = json(await list(`?organization_id=${other.organization.id}`));
    expect(listed.items).toEqual([]);
  });

  it('answers 404 for an unknown id and 422 for an id that is not a UUID', async () => {
    expect((await get(randomUUID())).statusCode).toBe(404);
    const response = await get('not-a-uuid');
    expect(response.statusCode).toBe(422);
    expect(json(response).detail[0].loc).toEqual(['path', 'id']);
  });

  it('answers 422 for a bad body on create and update, writing nothing', async () => {
    const onCreate = await expectRejected(() =>
      create({ type: 'custom', description: 'ab', properties: { note: 5 }, metadata: { '': 'x' } }),
    );
    expect(onCreate.map((i) => i.loc.join('.'))).toEqual(
      expect.arrayContaining(['body.description', 'body.properties.note']),
    );
    const before = json(await get(benefitId));
    const onUpdate = await expectRejected(() => patch(benefitId, { type: 'custom', description: 'x'.repeat(43) }));
    expect(onUpdate).toEqual([expect.objectContaining({ loc: ['body', 'description'], type: 'string_too_long' })]);
    expect(json(await get(benefitId))).toEqual(before);
  });

  it('answers 422 for bad list parameters', async () => {
    for (const query of ['?type=nope', '?organization_id=x', '?sorting=name', '?limit=0', '?page=0']) {
      const response = await list(query);
      expect(response.statusCode, query).toBe(422);
      expect(json(response).detail[0].loc[0]).toBe('query');
    }
    const response = await grants(benefitId, '?is_granted=maybe&customer_id=x');
    expect(response.statusCode).toBe(422);
    expect(json(response).detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual([
      'query.is_granted',
      'query.customer_id.0',
    ]);
  });
});

describe('POST /v1/benefits/', () => {
  it.each(TYPES.filter((t) => t !== 'downloadables'))(
    'creates a %s benefit and records benefit.created',
    async (type) => {
      tick();
      const body = {
        type,
        description: `A ${type} benefit`.slice(0, 42),
        properties: propertiesFor(server, type, meterId),
      };
      const response = await create({ ...body, metadata: { tier: 'gold', seats: 3 } });
      expect(response.statusCode, response.body).toBe(201);
      const benefit = json(response);
      expect(benefit).toMatchObject({
        type,
        description: body.description,
        selectable: true,
        deletable: true,
        organization_id: acme.organization.id,
        metadata: { tier: 'gold', seats: 3 },
        modified_at: null,
        created_at: clock.now().toISOString(),
      });
      expect(json(await get(benefit.id))).toEqual(benefit);
      const recorded = (await events(acme.organization.id)).filter(
        (e) => (e.payload as { data: { id: string } }).data.id === benefit.id,
      );
      expect(recorded.map((e) => e.type)).toEqual(['benefit.created']);
      expect((recorded[0]!.payload as { data: unknown }).data).toEqual(benefit);
    },
  );

  it('stores and returns each type in its read shape', async () => {
    const custom = json(await create({ type: 'custom', description: 'No note', properties: {} }));
    expect(custom.properties).toEqual({ note: null });
    const keys = json(await create({ type: 'license_keys', description: 'Keys', properties: {} }));
    expect(keys.properties).toEqual({ prefix: null, expires: null, activations: null, limit_usage: null });
    const token = guildToken(server, '42');
    const discord = json(
      await create({ type: 'discord', description: 'Discord', properties: { guild_token: token, role_id: '7' } }),
    );
    expect(discord.properties).toEqual({ guild_id: '42', role_id: '7', kick_member: false, guild_token: token });
    const github = json(
      await create({
        type: 'github_repository',
        description: 'Repo',
        properties: { repository_owner: 'acme-inc', repository_name: 'app.js', permission: 'maintain' },
      }),
    );
    expect(github.properties).toEqual({
      repository_owner: 'acme-inc',
      repository_name: 'app.js',
      permission: 'maintain',
    });
    const credit = json(
      await create({
        type: 'meter_credit',
        description: 'Credits',
        properties: { units: 5, rollover: true, meter_id: meterId },
      }),
    );
    expect(credit.properties).toEqual({ units: 5, rollover: true, meter_id: meterId });
  });

  it('lets a dashboard user create for an organization they belong to', async () => {
    const user = await userFactory(server);
    const org = json(
      await server.inject({
        method: 'POST',
        url: '/v1/organizations/',
        headers: user.headers,
        payload: { name: 'User Org', slug: `user-org-${randomUUID().slice(0, 8)}` },
      }),
    );
    const missing = await expectRejected(() => create(customBody(), user.headers), org.id);
    expect(missing).toEqual([
      { loc: ['body', 'organization_id'], msg: 'organization_id is required.', type: 'missing' },
    ]);
    const foreign = await expectRejected(
      () => create(customBody({ organization_id: acme.organization.id }), user.headers),
      acme.organization.id,
    );
    expect(foreign[0]).toMatchObject({ loc: ['body', 'organization_id'], msg: 'Organization not found.' });
    const response = await create(customBody({ organization_id: org.id }), user.headers);
    expect(response.statusCode).toBe(201);
    expect(json(response).organization_id).toBe(org.id);
    const listed = json(await list('', { cookie: user.cookie }));
    expect(listed.items.map((b: { id: string }) => b.id)).toEqual([json(response).id]);
  });

  it('refuses organization_id with an organization token', async () => {
    const issues = await expectRejected(() => create(customBody({ organization_id: acme.organization.id })));
    expect(issues).toEqual([
      {
        loc: ['body', 'organization_id'],
        msg: 'Setting organization_id is disallowed when using an organization token.',
        type: 'organization_token',
      },
    ]);
  });

  it('validates the description length (3..42) and the type tag', async () => {
    for (const description of ['ab', 'x'.repeat(43)]) {
      const issues = await expectRejected(() => create(customBody({ description })));
      expect(issues[0]!.loc).toEqual(['body', 'description']);
    }
    expect((await create(customBody({ description: 'abc' }))).statusCode).toBe(201);
    expect((await create(customBody({ description: 'x'.repeat(42) }))).statusCode).toBe(201);
    for (const type of [undefined, 'nope']) {
      const issues = await expectRejected(() => create({ type, description: 'Good', properties: {} }));
      expect(issues).toEqual([expect.objectContaining({ loc: ['body', 'type'], type: 'union_tag_invalid' })]);
    }
    const missing = await expectRejected(() => create({ type: 'custom', description: 'No properties' }));
    expect(missing).toEqual([{ loc: ['body', 'properties'], msg: 'Field required', type: 'missing' }]);
  });

  it('refuses properties of another type (type must match its property variant)', async () => {
    const keysAsCustom = await expectRejected(() =>
      create({ type: 'custom', description: 'Mismatch', properties: propertiesFor(server, 'license_keys') }),
    );
    expect(keysAsCustom[0]).toMatchObject({ loc: ['body', 'properties'], type: 'extra_forbidden' });
    const customAsKeys = await expectRejected(() =>
      create({ type: 'license_keys', description: 'Mismatch', properties: { note: 'hello' } }),
    );
    expect(customAsKeys[0]).toMatchObject({ loc: ['body', 'properties'], type: 'extra_forbidden' });
    const repoAsCredit = await expectRejected(() =>
      create({ type: 'meter_credit', description: 'Mismatch', properties: propertiesFor(server, 'github_repository') }),
    );
    expect(repoAsCredit.map((i) => i.loc.join('.'))).toEqual(
      expect.arrayContaining(['body.properties.units', 'body.properties.rollover', 'body.properties.meter_id']),
    );
    const creditAsRepo = await expectRejected(() =>
      create({
        type: 'github_repository',
        description: 'Mismatch',
        properties: { units: 1, rollover: false, meter_id: meterId },
      }),
    );
    expect(creditAsRepo.map((i) => i.loc.join('.'))).toEqual(
      expect.arrayContaining(['body.properties.repository_owner', 'body.properties.permission']),
    );
  });

  describe('discord', () => {
    it('accepts a valid guild token and refuses expired, forged, foreign and malformed ones', async () => {
      const expired = signGuildToken(server.config.secret, '1', new Date(clock.now().getTime() - 16 * 60 * 1000));
      const forged = signGuildToken('another-secret-0123456789abcdefghijklmnop', '1', clock.now());
      const [h, p] = guildToken(server, '1').split('.');
      const wrongType = `${h}.${Buffer.from(JSON.stringify({ guild_id: '1', type: 'other', exp: 9e9 })).toString('base64url')}.x`;
      for (const token of [expired, forged, wrongType, `${h}.${p}`, 'garbage']) {
        const issues = await expectRejected(() =>
          create({ type: 'discord', description: 'Discord', properties: { guild_token: token, role_id: '1' } }),
        );
        expect(issues).toEqual([
          {
            loc: ['body', 'properties', 'guild_token'],
            msg: 'Invalid token. Please authenticate your Discord server again.',
            type: 'value_error',
          },
        ]);
      }
      const missingRole = await expectRejected(() =>
        create({ type: 'discord', description: 'Discord', properties: { guild_token: guildToken(server, '1') } }),
      );
      expect(missingRole[0]!.loc).toEqual(['body', 'properties', 'role_id']);
    });
  });

  describe('github_repository', () => {
    it('validates owner, name and permission', async () => {
      const valid = propertiesFor(server, 'github_repository');
      for (const [key, value] of [
        ['repository_owner', ''],
        ['repository_owner', 'bad owner'],
        ['repository_owner', '-acme'],
        ['repository_name', 'has/slash'],
        ['repository_name', 'x'.repeat(101)],
        ['permission', 'write'],
      ] as const) {
        const issues = await expectRejected(() =>
          create({ type: 'github_repository', description: 'Repo', properties: { ...valid, [key]: value } }),
        );
        expect(issues[0]!.loc, `${key}=${value}`).toEqual(['body', 'properties', key]);
      }
      for (const permission of ['pull', 'triage', 'push', 'maintain', 'admin']) {
        expect(
          (await create({ type: 'github_repository', description: 'Repo', properties: { ...valid, permission } }))
            .statusCode,
        ).toBe(201);
      }
    });
  });

  describe('downloadables', () => {
    it('requires at least one file and refuses unknown files one by one', async () => {
      const empty = await expectRejected(() =>
        create({ type: 'downloadables', description: 'Files', properties: { files: [] } }),
      );
      expect(empty).toEqual([expect.objectContaining({ loc: ['body', 'properties', 'files'], type: 'too_short' })]);
      const [a, b] = [randomUUID(), randomUUID()];
      const unknown = await expectRejected(() =>
        create({ type: 'downloadables', description: 'Files', properties: { files: [a, b], archived: { [a]: true } } }),
      );
      expect(unknown).toEqual([
        { loc: ['body', 'properties', 'files', 0], msg: 'File not found', type: 'value_error' },
        { loc: ['body', 'properties', 'files', 1], msg: 'File not found', type: 'value_error' },
      ]);
      const notUuid = await expectRejected(() =>
        create({ type: 'downloadables', description: 'Files', properties: { files: ['nope'] } }),
      );
      expect(notUuid[0]!.loc).toEqual(['body', 'properties', 'files', 0]);
      const badArchived = await expectRejected(() =>
        create({ type: 'downloadables', description: 'Files', properties: { files: [a], archived: { [a]: 'yes' } } }),
      );
      expect(badArchived[0]!.loc).toEqual(['body', 'properties', 'archived', a]);
    });
  });

  describe('license_keys', () => {
    it.each([
      [{ expires: { ttl: 0, timeframe: 'day' } }, 'expires.ttl'],
      [{ expires: { ttl: 1, timeframe: 'week' } }, 'expires.timeframe'],
      [{ expires: { ttl: 1.5, timeframe: 'day' } }, 'expires.ttl'],
      [{ activations: { limit: 0, enable_customer_admin: true } }, 'activations.limit'],
      [{ activations: { limit: 51, enable_customer_admin: true } }, 'activations.limit'],
      [{ activations: { limit: 5 } }, 'activations.enable_customer_admin'],
      [{ limit_usage: 0 }, 'limit_usage'],
      [{ prefix: 5 }, 'prefix'],
    ])('refuses %j', async (properties, loc) => {
      const issues = await expectRejected(() => create({ type: 'license_keys', description: 'Keys', properties }));
      expect(issues[0]!.loc.join('.')).toBe(`body.properties.${loc}`);
    });

    it('accepts the bounds and nulls', async () => {
      for (const properties of [
        { activations: { limit: 1, enable_customer_admin: false }, limit_usage: 1 },
        { activations: { limit: 50, enable_customer_admin: true }, expires: { ttl: 30, timeframe: 'day' } },
        { prefix: null, expires: null, activations: null, limit_usage: null },
      ]) {
        expect((await create({ type: 'license_keys', description: 'Keys', properties })).statusCode).toBe(201);
      }
    });
  });

  describe('meter_credit', () => {
    it('refuses an unknown, foreign or archived meter and non-positive units', async () => {
      const foreignMeter = await meterFactory(server, other.organization.id);
      const archived = await meterFactory(server, acme.organization.id, { archived_at: clock.now() });
      for (const [meter, msg] of [
        [randomUUID(), 'This meter does not exist.'],
        [foreignMeter.id, 'This meter does not exist.'],
        [archived.id, 'This meter is archived.'],
      ] as const) {
        const issues = await expectRejected(() =>
          create({
            type: 'meter_credit',
            description: 'Credits',
            properties: { units: 1, rollover: false, meter_id: meter },
          }),
        );
        expect(issues).toEqual([{ loc: ['body', 'properties', 'meter_id'], msg, type: 'value_error' }]);
      }
      for (const units of [0, -1, 1.5]) {
        const issues = await expectRejected(() =>
          create({
            type: 'meter_credit',
            description: 'Credits',
            properties: { units, rollover: false, meter_id: meterId },
          }),
        );
        expect(issues[0]!.loc).toEqual(['body', 'properties', 'units']);
      }
    });

    it('needs usage-based billing enabled on the organization', async () => {
      const otherMeter = await meterFactory(server, other.organization.id);
      const issues = await expectRejected(
        () =>
          create(
            {
              type: 'meter_credit',
              description: 'Credits',
              properties: { units: 1, rollover: false, meter_id: otherMeter.id },
            },
            bearer(other.token),
          ),
        other.organization.id,
      );
      expect(issues).toEqual([
        { loc: ['body', 'type'], msg: 'Usage based billing is not enabled on your organization.', type: 'value_error' },
      ]);
    });
  });
});

describe('GET /v1/benefits/', () => {
  let org: OrganizationFixture;
  beforeAll(async () => {
    org = await organizationFactory(server, { name: 'Lister' });
    const specs: [string, string][] = [
      ['custom', 'Delta support'],
      ['license_keys', 'alpha keys'],
      ['custom', 'Charlie 100% off'],
      ['github_repository', 'bravo repo'],
      ['custom', 'echo_under'],
    ];
    for (const [type, description] of specs) {
      tick();
      const properties =
        type === 'license_keys'
          ? { prefix: null, expires: null, activations: null, limit_usage: null }
          : type === 'github_repository'
            ? { repository_owner: 'a', repository_name: 'b', permission: 'pull' }
            : { note: null };
      await benefitFactory(server, org.organization.id, { type, description, created_at: clock.now(), properties });
    }
    const deleted = await benefitFactory(server, org.organization.id, { description: 'Deleted one' });
    await del(deleted.id, bearer(org.token));
  });
  const names = (response: { body: string }) =>
    json(response as never).items.map((b: { description: string }) => b.description);
  const as = (query: string) => list(query, bearer(org.token));

  it('lists newest first by default, without deleted benefits', async () => {
    const response = await as('');
    expect(response.statusCode).toBe(200);
    expect(names(response)).toEqual(['echo_under', 'bravo repo', 'Charlie 100% off', 'alpha keys', 'Delta support']);
    expect(json(response).pagination).toEqual({ total_count: 5, max_page: 1 });
  });

  it('sorts by created_at and description, either way', async () => {
    expect(names(await as('?sorting=created_at'))).toEqual([
      'Delta support',
      'alpha keys',
      'Charlie 100% off',
      'bravo repo',
      'echo_under',
    ]);
    const byDescription = names(await as('?sorting=description'));
    expect(byDescription).toHaveLength(5);
    expect(names(await as('?sorting=-description'))).toEqual([...byDescription].reverse());
  });

  it('pages across more than one page', async () => {
    const page1 = json(await as('?limit=2&sorting=created_at'));
    const page2 = json(await as('?limit=2&page=2&sorting=created_at'));
    const page3 = json(await as('?limit=2&page=3&sorting=created_at'));
    expect(page1.pagination).toEqual({ total_count: 5, max_page: 3 });
    expect(page1.items.map((b: { description: string }) => b.description)).toEqual(['Delta support', 'alpha keys']);
    expect(page2.items.map((b: { description: string }) => b.description)).toEqual(['Charlie 100% off', 'bravo repo']);
    expect(page3.items.map((b: { description: string }) => b.description)).toEqual(['echo_under']);
    expect(json(await as('?limit=2&page=9'))).toEqual({ items: [], pagination: { total_count: 5, max_page: 3 } });
  });

  it('filters by type (one or list), organization and query', async () => {
    expect(names(await as('?type=custom'))).toEqual(['echo_under', 'Charlie 100% off', 'Delta support']);
    expect(names(await as('?type=license_keys&type=github_repository'))).toEqual(['bravo repo', 'alpha keys']);
    expect(names(await as(`?organization_id=${org.organization.id}&organization_id=${randomUUID()}`))).toHaveLength(5);
    expect(names(await as(`?organization_id=${randomUUID()}`))).toEqual([]);
    expect(names(await as('?query=ALPHA'))).toEqual(['alpha keys']);
    // LIKE wildcards in the search term match themselves.
    expect(names(await as('?query=100%25'))).toEqual(['Charlie 100% off']);
    expect(names(await as('?query=_'))).toEqual(['echo_under']);
  });
});

describe('PATCH /v1/benefits/{id}', () => {
  it('updates description and metadata, replaces properties, records benefit.updated', async () => {
    const created = json(
      await create({ type: 'license_keys', description: 'Keys', properties: propertiesFor(server, 'license_keys') }),
    );
    tick();
    const response = await patch(created.id, {
      type: 'license_keys',
      description: 'Renamed keys',
      metadata: { a: 1 },
      properties: { prefix: 'NEW' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const updated = json(response);
    expect(updated).toMatchObject({
      description: 'Renamed keys',
      metadata: { a: 1 },
      // Replaced whole: what was not sent is gone.
      properties: { prefix: 'NEW', expires: null, activations: null, limit_usage: null },
      modified_at: clock.now().toISOString(),
      created_at: created.created_at,
    });
    // Only type: nothing else changes (but the event is still recorded).
    const same = json(await patch(created.id, { type: 'license_keys', description: null, properties: null }));
    expect(same).toMatchObject({ description: 'Renamed keys', properties: updated.properties, metadata: { a: 1 } });
    const recorded = (await events(acme.organization.id)).filter(
      (e) => (e.payload as { data: { id: string } }).data.id === created.id,
    );
    expect(recorded.map((e) => e.type)).toEqual(['benefit.created', 'benefit.updated', 'benefit.updated']);
    expect((recorded[1]!.payload as { data: unknown }).data).toEqual(updated);
  });

  it('requires type and refuses changing it', async () => {
    const custom = await benefitFactory(server, acme.organization.id);
    const missing = await expectRejected(() => patch(custom.id, { description: 'No type' }));
    expect(missing).toEqual([expect.objectContaining({ loc: ['body', 'type'] })]);
    const changed = await expectRejected(() =>
      patch(custom.id, { type: 'license_keys', properties: propertiesFor(server, 'license_keys') }),
    );
    expect(changed).toEqual([{ loc: ['body', 'type'], msg: 'Benefit type cannot be changed.', type: 'value_error' }]);
    const mismatch = await expectRejected(() =>
      patch(custom.id, { type: 'custom', properties: propertiesFor(server, 'license_keys') }),
    );
    expect(mismatch[0]!.loc).toEqual(['body', 'properties']);
  });

  it('validates properties again on update', async () => {
    const credit = json(
      await create({
        type: 'meter_credit',
        description: 'Credits',
        properties: propertiesFor(server, 'meter_credit', meterId),
      }),
    );
    const issues = await expectRejected(() =>
      patch(credit.id, { type: 'meter_credit', properties: { units: 10, rollover: true, meter_id: randomUUID() } }),
    );
    expect(issues[0]).toMatchObject({ loc: ['body', 'properties', 'meter_id'], msg: 'This meter does not exist.' });
    const ok = await patch(credit.id, {
      type: 'meter_credit',
      properties: { units: 10, rollover: true, meter_id: meterId },
    });
    expect(json(ok).properties).toEqual({ units: 10, rollover: true, meter_id: meterId });
  });

  it('accepts the discord token it returned, even after it expired, and a fresh one for another guild', async () => {
    const created = json(
      await create({ type: 'discord', description: 'Discord', properties: propertiesFor(server, 'discord') }),
    );
    clock.advance(60 * 60 * 1000);
    const sentBack = await patch(created.id, {
      type: 'discord',
      properties: { guild_token: created.properties.guild_token, role_id: '555' },
    });
    expect(sentBack.statusCode, sentBack.body).toBe(200);
    expect(json(sentBack).properties).toMatchObject({ guild_id: created.properties.guild_id, role_id: '555' });
    const expiredOther = signGuildToken(server.config.secret, '777', new Date(clock.now().getTime() - 20 * 60 * 1000));
    await expectRejected(() =>
      patch(created.id, { type: 'discord', properties: { guild_token: expiredOther, role_id: '1' } }),
    );
    const fresh = guildToken(server, '777');
    const moved = json(await patch(created.id, { type: 'discord', properties: { guild_token: fresh, role_id: '1' } }));
    expect(moved.properties).toEqual({ guild_id: '777', role_id: '1', kick_member: false, guild_token: fresh });
  });
});

describe('DELETE /v1/benefits/{id}', () => {
  it('soft-deletes, answers 204, records benefit.updated, then 404', async () => {
    const created = json(await create(customBody()));
    tick();
    const response = await del(created.id);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await get(created.id)).statusCode).toBe(404);
    expect((await patch(created.id, { type: 'custom', description: 'Back' })).statusCode).toBe(404);
    expect((await del(created.id)).statusCode).toBe(404);
    expect((await grants(created.id)).statusCode).toBe(404);
    const row = await server.runtime.database.db
      .selectFrom('benefits')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at?.toISOString()).toBe(clock.now().toISOString());
    const recorded = (await events(acme.organization.id)).filter(
      (e) => (e.payload as { data: { id: string } }).data.id === created.id,
    );
    expect(recorded.map((e) => e.type)).toEqual(['benefit.created', 'benefit.updated']);
    expect((recorded[1]!.payload as { data: { modified_at: string } }).data.modified_at).toBe(
      clock.now().toISOString(),
    );
  });

  it('answers 403 NotPermitted for a benefit that is not deletable, changing nothing', async () => {
    const system = await benefitFactory(server, acme.organization.id, { deletable: false, description: 'System' });
    const before = await counts(acme.organization.id);
    const response = await del(system.id);
    expect(response.statusCode).toBe(403);
    expect(json(response)).toEqual({ error: 'NotPermitted', detail: 'Not permitted' });
    expect(await counts(acme.organization.id)).toEqual(before);
    expect(json(await get(system.id))).toMatchObject({ deletable: false, description: 'System' });
  });
});

describe('GET /v1/benefits/{id}/grants', () => {
  it('answers an empty page for a benefit without grants', async () => {
    const benefit = await benefitFactory(server, acme.organization.id);
    const response = await grants(benefit.id);
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ items: [], pagination: { total_count: 0, max_page: 0 } });
  });

  it('lists grants newest first with their customer, filtered by is_granted and customer_id, paged', async () => {
    const benefit = await benefitFactory(server, acme.organization.id);
    const granted = await grantFactory(server, acme.organization.id, benefit.id, { createdAt: tick() });
    const revoked = await grantFactory(server, acme.organization.id, benefit.id, { revoked: true, createdAt: tick() });
    const pending = await grantFactory(server, acme.organization.id, benefit.id, { granted: false, createdAt: tick() });
    const all = json(await grants(benefit.id));
    expect(all.items.map((g: { id: string }) => g.id)).toEqual([pending.id, revoked.id, granted.id]);
    expect(all.pagination).toEqual({ total_count: 3, max_page: 1 });
    const first = all.items[2];
    expect(first).toMatchObject({
      id: granted.id,
      benefit_id: benefit.id,
      customer_id: granted.customer_id,
      is_granted: true,
      is_revoked: false,
      granted_at: granted.created_at.toISOString(),
      revoked_at: null,
      subscription_id: null,
      order_id: granted.order_id,
      error: null,
      properties: {},
    });
    expect(first.customer).toMatchObject({ id: granted.customer_id, organization_id: acme.organization.id });
    expect(all.items[1]).toMatchObject({ is_granted: false, is_revoked: true });

    const ids = (query: string) =>
      grants(benefit.id, query).then((r) => json(r).items.map((g: { id: string }) => g.id));
    expect(await ids('?is_granted=true')).toEqual([granted.id]);
    // As the reference: false means "not currently granted" (revoked, pending or failed).
    expect(await ids('?is_granted=false')).toEqual([pending.id, revoked.id]);
    expect(await ids(`?customer_id=${revoked.customer_id}&customer_id=${granted.customer_id}`)).toEqual([
      revoked.id,
      granted.id,
    ]);
    const page2 = json(await grants(benefit.id, '?limit=2&page=2'));
    expect(page2.items.map((g: { id: string }) => g.id)).toEqual([granted.id]);
    expect(page2.pagination).toEqual({ total_count: 3, max_page: 2 });
  });
});

describe('what the products module uses', () => {
  it('findBenefitsByIds returns only live benefits of the organization', async () => {
    const mine = await benefitFactory(server, acme.organization.id);
    const deleted = await benefitFactory(server, acme.organization.id, { deleted_at: clock.now() });
    const foreign = await benefitFactory(server, other.organization.id);
    const found = await findBenefitsByIds(server.runtime.database.db, acme.organization.id, [
      mine.id,
      deleted.id,
      foreign.id,
      randomUUID(),
    ]);
    expect(found.map((b) => b.id)).toEqual([mine.id]);
    expect(await findBenefitsByIds(server.runtime.database.db, acme.organization.id, [])).toEqual([]);
    expect(serializeBenefit(found[0]!)).toEqual(json(await get(mine.id)));
  });

  it('findBenefitsOfProducts keeps attachment order; deleting a benefit detaches it', async () => {
    const db = server.runtime.database.db;
    const product = await db
      .insertInto('products')
      .values({
        id: randomUUID(),
        created_at: clock.now(),
        modified_at: null,
        organization_id: acme.organization.id,
        name: 'Bundle',
        description: null,
        recurring_interval: null,
        is_archived: false,
        metadata: '{}',
        price_sort_type: null,
        price_sort_amount: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const [first, second] = [
      await benefitFactory(server, acme.organization.id),
      await benefitFactory(server, acme.organization.id),
    ];
    await db
      .insertInto('product_benefits')
      .values([
        { product_id: product.id, benefit_id: second.id, order: 0, created_at: clock.now() },
        { product_id: product.id, benefit_id: first.id, order: 1, created_at: clock.now() },
      ])
      .execute();
    const attached = await findBenefitsOfProducts(db, [product.id]);
    expect(attached.get(product.id)!.map((b) => b.id)).toEqual([second.id, first.id]);
    expect((await del(second.id)).statusCode).toBe(204);
    const links = await db
      .selectFrom('product_benefits')
      .select('benefit_id')
      .where('product_id', '=', product.id)
      .execute();
    expect(links.map((l) => l.benefit_id)).toEqual([first.id]);
    expect((await findBenefitsOfProducts(db, [product.id])).get(product.id)!.map((b) => b.id)).toEqual([first.id]);
  });

  it('findBenefitsOfProducts answers an empty list for products without benefits', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const found = await findBenefitsOfProducts(server.runtime.database.db, [a, b]);
    expect([...found.entries()]).toEqual([
      [a, []],
      [b, []],
    ]);
  });
});
