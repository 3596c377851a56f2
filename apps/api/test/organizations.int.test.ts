import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationFactory, tokenFactory, uniqueSlug, type OrganizationFixture } from './factories/organizations.js';
import { OWN_ORIGIN, userFactory, type UserFixture } from './factories/users.js';
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

const get = (id: string, headers: Record<string, string> = {}) =>
  server.inject({ method: 'GET', url: `/v1/organizations/${id}`, headers });
const patch = (id: string, payload: unknown, headers: Record<string, string> = {}) =>
  server.inject({ method: 'PATCH', url: `/v1/organizations/${id}`, headers, payload: payload as object });

async function countEvents(organizationId: string): Promise<number> {
  const row = await server.runtime.database.db
    .selectFrom('webhook_events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('auth matrix', () => {
  it('answers 401 without a token', async () => {
    const response = await get(acme.organization.id);
    expect(response.statusCode).toBe(401);
    expect(json(response)).toEqual({ error: 'Unauthorized', detail: 'Unauthorized' });
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('answers 401 invalid_token for an unknown, malformed or foreign-kind token', async () => {
    for (const value of ['Bearer polar_oat_doesnotexist', 'Bearer nothing-we-issue', 'Basic abc', 'Bearer']) {
      const response = await get(acme.organization.id, { authorization: value });
      expect(response.statusCode, value).toBe(401);
      expect(json(response).error).toBe('invalid_token');
    }
  });

  it('answers 401 for an expired token', async () => {
    const expired = await tokenFactory(
      server,
      acme.organization.id,
      ['organizations:read'],
      new Date('2020-01-01T00:00:00Z'),
    );
    expect((await get(acme.organization.id, bearer(expired))).statusCode).toBe(401);
  });

  it('answers 403 insufficient_scope when the token lacks the scope', async () => {
    const readOnly = await tokenFactory(server, acme.organization.id, ['organizations:read']);
    expect((await get(acme.organization.id, bearer(readOnly))).statusCode).toBe(200);
    const response = await patch(acme.organization.id, { name: 'Nope' }, bearer(readOnly));
    expect(response.statusCode).toBe(403);
    expect(json(response).error).toBe('insufficient_scope');
    const unrelated = await tokenFactory(server, acme.organization.id, ['products:read']);
    expect((await get(acme.organization.id, bearer(unrelated))).statusCode).toBe(403);
  });

  it('accepts a write scope where read is required', async () => {
    const writer = await tokenFactory(server, acme.organization.id, ['organizations:write']);
    expect((await get(acme.organization.id, bearer(writer))).statusCode).toBe(200);
  });

  it("answers 404 for another organization's resource", async () => {
    const response = await get(other.organization.id, bearer(acme.token));
    expect(response.statusCode).toBe(404);
    expect(json(response)).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    const update = await patch(other.organization.id, { name: 'Hijacked' }, bearer(acme.token));
    expect(update.statusCode).toBe(404);
    expect(json(await get(other.organization.id, bearer(other.token))).name).toBe('Other');
  });

  it('answers 422 for a bad body and changes nothing', async () => {
    const before = json(await get(acme.organization.id, bearer(acme.token)));
    const eventsBefore = await countEvents(acme.organization.id);
    const response = await patch(
      acme.organization.id,
      { name: 'ab', email: 'not-an-email', subscription_settings: { allow_multiple_subscriptions: 'yes' } },
      bearer(acme.token),
    );
    expect(response.statusCode).toBe(422);
    const locs = json(response).detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(locs).toEqual(
      expect.arrayContaining([
        'body.name',
        'body.email',
        'body.subscription_settings.allow_multiple_subscriptions',
        'body.subscription_settings.allow_customer_updates',
      ]),
    );
    for (const issue of json(response).detail) expect(Object.keys(issue).sort()).toEqual(['loc', 'msg', 'type']);
    expect(json(await get(acme.organization.id, bearer(acme.token)))).toEqual(before);
    expect(await countEvents(acme.organization.id)).toBe(eventsBefore);
  });

  it('answers 422 for an id that is not a UUID', async () => {
    const response = await get('not-a-uuid', bearer(acme.token));
    expect(response.statusCode).toBe(422);
    expect(json(response).detail[0].loc).toEqual(['path', 'id']);
  });
});

describe('GET /v1/organizations/', () => {
  it('shows an organization token only its own organization', async () => {
    const response = await server.inject({ method: 'GET', url: '/v1/organizations/', headers: bearer(acme.token) });
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(body.items.map((o: { id: string }) => o.id)).toEqual([acme.organization.id]);
    expect(body.pagination).toEqual({ total_count: 1, max_page: 1 });
  });

  it('shows a user the organizations they belong to, paged and sorted, filtered by slug', async () => {
    const user = await userFactory(server);
    const slugs = ['zeta', 'alpha', 'mid'].map((s) => uniqueSlug(s));
    for (const slug of slugs) {
      const created = await server.inject({
        method: 'POST',
        url: '/v1/organizations/',
        headers: user.headers,
        payload: { name: `Org ${slug}`, slug },
      });
      expect(created.statusCode).toBe(201);
    }
    const page1 = json(
      await server.inject({
        method: 'GET',
        url: '/v1/organizations/?limit=2&sorting=slug',
        headers: { cookie: user.cookie },
      }),
    );
    expect(page1.pagination).toEqual({ total_count: 3, max_page: 2 });
    expect(page1.items.map((o: { slug: string }) => o.slug)).toEqual([...slugs].sort().slice(0, 2));
    const page2 = json(
      await server.inject({
        method: 'GET',
        url: '/v1/organizations/?limit=2&page=2&sorting=slug',
        headers: { cookie: user.cookie },
      }),
    );
    expect(page2.items.map((o: { slug: string }) => o.slug)).toEqual([...slugs].sort().slice(2));
    const beyond = json(
      await server.inject({
        method: 'GET',
        url: '/v1/organizations/?limit=2&page=9',
        headers: { cookie: user.cookie },
      }),
    );
    expect(beyond).toEqual({ items: [], pagination: { total_count: 3, max_page: 2 } });
    const descending = json(
      await server.inject({ method: 'GET', url: '/v1/organizations/?sorting=-slug', headers: { cookie: user.cookie } }),
    );
    expect(descending.items.map((o: { slug: string }) => o.slug)).toEqual([...slugs].sort().reverse());
    const bySlug = json(
      await server.inject({
        method: 'GET',
        url: `/v1/organizations/?slug=${slugs[1]!.toUpperCase()}`,
        headers: { cookie: user.cookie },
      }),
    );
    expect(bySlug.items.map((o: { slug: string }) => o.slug)).toEqual([slugs[1]]);
    // Membership is the boundary: acme is not listed.
    expect(descending.items.some((o: { id: string }) => o.id === acme.organization.id)).toBe(false);
  });
});

describe('POST /v1/organizations/', () => {
  let user: UserFixture;
  beforeAll(async () => {
    user = await userFactory(server);
  });
  const create = (payload: unknown, headers = user.headers) =>
    server.inject({ method: 'POST', url: '/v1/organizations/', headers, payload: payload as object });

  it('creates an organization with the defaults of the reference', async () => {
    const slug = uniqueSlug('new');
    const response = await create({ name: 'New Co', slug: slug.toUpperCase() });
    expect(response.statusCode).toBe(201);
    expect(json(response)).toMatchObject({
      name: 'New Co',
      slug,
      avatar_url: null,
      email: null,
      website: null,
      socials: [],
      details_submitted_at: null,
      modified_at: null,
      feature_settings: { issue_funding_enabled: false, usage_based_billing_enabled: false },
      subscription_settings: {
        allow_multiple_subscriptions: false,
        allow_customer_updates: true,
        proration_behavior: 'prorate',
      },
    });
    expect(json(response).created_at).toBe('2026-01-15T12:00:00.000Z');
  });

  it('records details once and stamps details_submitted_at', async () => {
    const details = {
      about: 'We sell fonts',
      product_description: 'Font licenses',
      intended_use: 'Subscriptions',
      customer_acquisition: ['twitter'],
      future_annual_revenue: 100000,
    };
    const response = await create({ name: 'Fonts', slug: uniqueSlug('fonts'), details });
    expect(response.statusCode).toBe(201);
    expect(json(response).details_submitted_at).toBe('2026-01-15T12:00:00.000Z');
  });

  it.each([
    ['not a slug!', 'The slug can only contain ASCII letters, numbers and hyphens.'],
    ['-leading', 'The slug can only contain ASCII letters, numbers and hyphens.'],
    ['dashboard', 'This slug is reserved.'],
    ['ab', 'Slug must be at least 3 characters'],
  ])('rejects the slug %j', async (slug, message) => {
    const response = await create({ name: 'Bad Slug', slug });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail).toEqual([expect.objectContaining({ loc: ['body', 'slug'], msg: message })]);
  });

  it('rejects a slug already used, whatever its case', async () => {
    const response = await create({ name: 'Copy', slug: acme.organization.slug.toUpperCase() });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail[0]).toMatchObject({
      loc: ['body', 'slug'],
      msg: 'An organization with this slug already exists.',
    });
  });

  it('rejects social links on the wrong domain', async () => {
    const response = await create({
      name: 'Social',
      slug: uniqueSlug('social'),
      socials: [
        { platform: 'github', url: 'https://gitlab.com/acme' },
        { platform: 'other', url: 'https://example.com' },
      ],
    });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail).toEqual([expect.objectContaining({ loc: ['body', 'socials', 0, 'url'] })]);
  });

  it('is refused to organization tokens (a token belongs to one organization)', async () => {
    const response = await create({ name: 'Via Token', slug: uniqueSlug('tok') }, bearer(acme.token));
    expect(response.statusCode).toBe(401);
    expect(json(response).error).toBe('invalid_token');
  });

  it('refuses a cookie-authenticated write from another origin (CSRF)', async () => {
    const slug = uniqueSlug('csrf');
    const crossSite = await create({ name: 'CSRF', slug }, { cookie: user.cookie, origin: 'https://evil.example' });
    expect(crossSite.statusCode).toBe(403);
    const noOrigin = await create({ name: 'CSRF', slug }, { cookie: user.cookie });
    expect(noOrigin.statusCode).toBe(403);
    const sameSite = await create({ name: 'CSRF', slug }, { cookie: user.cookie, origin: OWN_ORIGIN });
    expect(sameSite.statusCode).toBe(201);
  });
});

describe('PATCH /v1/organizations/{id}', () => {
  it('updates fields, merges feature settings, replaces subscription settings, and records organization.updated', async () => {
    const org = await organizationFactory(server);
    server.clock.now();
    const first = await patch(
      org.organization.id,
      {
        name: 'Renamed',
        website: 'https://renamed.example',
        socials: [{ platform: 'x', url: 'https://x.com/renamed' }],
        feature_settings: { issue_funding_enabled: true },
        subscription_settings: {
          allow_multiple_subscriptions: true,
          allow_customer_updates: false,
          proration_behavior: 'invoice',
        },
      },
      bearer(org.token),
    );
    expect(first.statusCode).toBe(200);
    expect(json(first)).toMatchObject({
      name: 'Renamed',
      slug: org.organization.slug,
      website: 'https://renamed.example',
      socials: [{ platform: 'x', url: 'https://x.com/renamed' }],
      feature_settings: { issue_funding_enabled: true, usage_based_billing_enabled: false },
      subscription_settings: {
        allow_multiple_subscriptions: true,
        allow_customer_updates: false,
        proration_behavior: 'invoice',
      },
    });
    expect(json(first).modified_at).not.toBeNull();

    const second = await patch(
      org.organization.id,
      { feature_settings: { usage_based_billing_enabled: true } },
      bearer(org.token),
    );
    expect(json(second).feature_settings).toEqual({ issue_funding_enabled: true, usage_based_billing_enabled: true });

    const events = await server.runtime.database.db
      .selectFrom('webhook_events')
      .select(['type', 'payload'])
      .where('organization_id', '=', org.organization.id)
      .orderBy('created_at')
      .execute();
    expect(events.map((e) => e.type)).toEqual(['organization.updated', 'organization.updated']);
    expect((events[1]!.payload as { data: unknown }).data).toEqual(json(second));
  });

  it('ignores an attempt to change the slug', async () => {
    const org = await organizationFactory(server);
    const response = await patch(org.organization.id, { slug: 'something-else' }, bearer(org.token));
    expect(response.statusCode).toBe(200);
    expect(json(response).slug).toBe(org.organization.slug);
  });

  it('stores details only the first time', async () => {
    const org = await organizationFactory(server);
    const details = (about: string) => ({
      about,
      product_description: 'p',
      intended_use: 'i',
      customer_acquisition: [],
      future_annual_revenue: 1,
    });
    const first = json(await patch(org.organization.id, { details: details('first') }, bearer(org.token)));
    expect(first.details_submitted_at).not.toBeNull();
    const stored = await server.runtime.database.db
      .selectFrom('organizations')
      .select(['details'])
      .where('id', '=', org.organization.id)
      .executeTakeFirstOrThrow();
    await patch(org.organization.id, { details: details('second') }, bearer(org.token));
    const after = await server.runtime.database.db
      .selectFrom('organizations')
      .select(['details'])
      .where('id', '=', org.organization.id)
      .executeTakeFirstOrThrow();
    expect(after.details).toEqual(stored.details);
    expect((after.details as { about: string }).about).toBe('first');
  });

  it('lets a member user update through the dashboard session', async () => {
    const user = await userFactory(server);
    const created = json(
      await server.inject({
        method: 'POST',
        url: '/v1/organizations/',
        headers: user.headers,
        payload: { name: 'Mine', slug: uniqueSlug('mine') },
      }),
    );
    const response = await patch(created.id, { email: 'billing@mine.example' }, user.headers);
    expect(response.statusCode).toBe(200);
    expect(json(response).email).toBe('billing@mine.example');
    // A user who is not a member does not see it.
    const stranger = await userFactory(server);
    expect((await patch(created.id, { email: 'x@y.example' }, stranger.headers)).statusCode).toBe(404);
  });
});

describe("the reference's organization fields of 2026", () => {
  it('answers each from the settings, or with its one value', async () => {
    const org = await organizationFactory(server);
    const read = json(await get(org.organization.id, bearer(org.token)));
    expect(read).toMatchObject({
      proration_behavior: 'prorate',
      allow_customer_updates: true,
      status: 'active',
      sso_enforced: false,
      default_presentment_currency: 'usd',
      default_tax_behavior: 'exclusive',
      customer_portal_settings: {
        usage: { show: true },
        subscription: { update_seats: false, update_plan: true },
        customer: { allow_email_change: false },
      },
      account_id: null,
      payout_account_id: null,
      capabilities: {
        checkout_payments: true,
        subscription_renewals: true,
        payouts: false,
        refunds: true,
        api_access: true,
        dashboard_access: true,
      },
      subscription_settings: {
        allow_multiple_subscriptions: false,
        allow_customer_updates: true,
        proration_behavior: 'prorate',
        benefit_revocation_grace_period: 0,
        prevent_trial_abuse: false,
      },
    });
    expect(Object.keys(read.customer_email_settings).sort()).toEqual([
      'order_confirmation',
      'order_refunded',
      'subscription_cancellation',
      'subscription_confirmation',
      'subscription_cycled',
      'subscription_cycled_after_trial',
      'subscription_past_due',
      'subscription_paused',
      'subscription_renewal_reminder',
      'subscription_resumed',
      'subscription_revoked',
      'subscription_trial_conversion_reminder',
      'subscription_uncanceled',
      'subscription_updated',
    ]);

    const taxed = await server.inject({
      method: 'PATCH',
      url: '/v1/tax-settings/',
      headers: bearer(org.token),
      payload: { prices_include_tax: true },
    });
    expect(taxed.statusCode, taxed.body).toBe(200);
    expect(json(await get(org.organization.id, bearer(org.token))).default_tax_behavior).toBe('inclusive');
  });

  it('takes the fixed subscription settings at their value and refuses any other with 422, changing nothing', async () => {
    const org = await organizationFactory(server);
    const settings = {
      allow_multiple_subscriptions: true,
      allow_customer_updates: false,
      proration_behavior: 'invoice',
    };
    const kept = await patch(
      org.organization.id,
      { subscription_settings: { ...settings, benefit_revocation_grace_period: 0, prevent_trial_abuse: false } },
      bearer(org.token),
    );
    expect(kept.statusCode, kept.body).toBe(200);
    expect(json(kept)).toMatchObject({
      subscription_settings: { ...settings, benefit_revocation_grace_period: 0, prevent_trial_abuse: false },
      proration_behavior: 'invoice',
      allow_customer_updates: false,
      customer_portal_settings: { subscription: { update_plan: false } },
    });
    const stored = await server.runtime.database.db
      .selectFrom('organizations')
      .select('subscription_settings')
      .where('id', '=', org.organization.id)
      .executeTakeFirstOrThrow();
    expect(stored.subscription_settings).toEqual(settings);

    const before = await countEvents(org.organization.id);
    const refused = await patch(
      org.organization.id,
      {
        subscription_settings: {
          ...settings,
          proration_behavior: 'prorate',
          benefit_revocation_grace_period: 7,
          prevent_trial_abuse: true,
        },
      },
      bearer(org.token),
    );
    expect(refused.statusCode).toBe(422);
    expect(json(refused).detail.map((issue: { loc: string[] }) => issue.loc.join('.'))).toEqual([
      'body.subscription_settings.benefit_revocation_grace_period',
      'body.subscription_settings.prevent_trial_abuse',
    ]);
    expect(json(await get(org.organization.id, bearer(org.token))).proration_behavior).toBe('invoice');
    expect(await countEvents(org.organization.id)).toBe(before);
  });
});
