import { randomUUID } from 'node:crypto';
import { Polar } from '@polar-sh/sdk';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { NotPermitted } from '@polar-sh/sdk/models/errors/notpermitted.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benefitFactory, grantFactory, guildToken, meterFactory } from '../factories/benefits.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { startTestServer, type TestServer } from '../harness.js';

/**
 * Drives the benefits API through the official `@polar-sh/sdk@0.33.2`; every response passes the SDK's
 * own validation or the call throws `ResponseValidationError`, failing the test.
 */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;
let polar: Polar;
let meterId: string;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
  await polar.organizations.update({
    id: acme.organization.id,
    organizationUpdate: { featureSettings: { usageBasedBillingEnabled: true } },
  });
  meterId = (await meterFactory(server, acme.organization.id)).id;
});
afterAll(() => server?.stop());

describe('benefits through @polar-sh/sdk', () => {
  const created: Record<string, string> = {};

  it('benefits.create, for every type', async () => {
    const custom = await polar.benefits.create({
      type: 'custom',
      description: 'Priority support',
      metadata: { tier: 'gold' },
      properties: { note: 'Write to support@acme.example' },
    });
    expect(custom).toMatchObject({
      type: 'custom',
      selectable: true,
      deletable: true,
      properties: { note: 'Write to support@acme.example' },
    });
    expect(custom.createdAt).toBeInstanceOf(Date);
    created.custom = custom.id;

    const token = guildToken(server, '1122334455');
    const discord = await polar.benefits.create({
      type: 'discord',
      description: 'Discord role',
      properties: { guildToken: token, roleId: '99887766' },
    });
    expect(discord).toMatchObject({
      type: 'discord',
      properties: { guildId: '1122334455', roleId: '99887766', guildToken: token },
    });
    created.discord = discord.id;

    const github = await polar.benefits.create({
      type: 'github_repository',
      description: 'Repository access',
      properties: { repositoryOwner: 'acme', repositoryName: 'sdk', permission: 'triage' },
    });
    expect(github).toMatchObject({
      type: 'github_repository',
      properties: { repositoryOwner: 'acme', permission: 'triage' },
    });
    created.github_repository = github.id;

    const keys = await polar.benefits.create({
      type: 'license_keys',
      description: 'License key',
      properties: {
        prefix: 'ACME',
        expires: { ttl: 1, timeframe: 'year' },
        activations: { limit: 3, enableCustomerAdmin: true },
      },
    });
    expect(keys).toMatchObject({
      type: 'license_keys',
      properties: {
        prefix: 'ACME',
        expires: { ttl: 1, timeframe: 'year' },
        activations: { limit: 3, enableCustomerAdmin: true },
        limitUsage: null,
      },
    });
    created.license_keys = keys.id;

    const credit = await polar.benefits.create({
      type: 'meter_credit',
      description: 'API credits',
      properties: { units: 1000, rollover: true, meterId },
    });
    expect(credit).toMatchObject({ type: 'meter_credit', properties: { units: 1000, rollover: true, meterId } });
    created.meter_credit = credit.id;

    // No file exists yet (files come later): the SDK gets the typed validation error.
    const fileId = randomUUID();
    const error = await polar.benefits
      .create({ type: 'downloadables', description: 'Downloads', properties: { files: [fileId] } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HTTPValidationError);
    expect((error as HTTPValidationError).detail).toEqual([
      { loc: ['body', 'properties', 'files', 0], msg: 'File not found', type: 'value_error' },
    ]);
    // A stored downloadables benefit reads back through the SDK.
    const downloadables = await benefitFactory(server, acme.organization.id, {
      type: 'downloadables',
      description: 'Downloads',
      properties: { archived: { [fileId]: false }, files: [fileId] },
    });
    created.downloadables = downloadables.id;
  });

  it('benefits.get, for every type', async () => {
    for (const [type, id] of Object.entries(created)) {
      const benefit = await polar.benefits.get({ id });
      expect(benefit.type, type).toBe(type);
      expect(benefit.organizationId).toBe(acme.organization.id);
    }
  });

  it('benefits.list, paging through the iterator and filtering', async () => {
    const pages = [];
    for await (const page of await polar.benefits.list({ limit: 2, sorting: ['created_at'] })) pages.push(page.result);
    expect(pages).toHaveLength(3);
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 2]);
    expect(pages.flatMap((p) => p.items.map((b) => b.id)).sort()).toEqual(Object.values(created).sort());
    expect(pages[0]!.pagination).toEqual({ totalCount: 6, maxPage: 3 });

    const filtered = await polar.benefits.list({
      organizationId: [acme.organization.id],
      typeFilter: ['custom', 'license_keys'],
      query: 'I',
      sorting: ['-description'],
    });
    expect(filtered.result.items.map((b) => b.description)).toEqual(['Priority support', 'License key']);
  });

  it('benefits.update', async () => {
    const updated = await polar.benefits.update({
      id: created.license_keys!,
      requestBody: { type: 'license_keys', description: 'Pro license', properties: { prefix: 'PRO', limitUsage: 10 } },
    });
    expect(updated).toMatchObject({
      type: 'license_keys',
      description: 'Pro license',
      properties: { prefix: 'PRO', expires: null, activations: null, limitUsage: 10 },
    });
    expect(updated.modifiedAt).toBeInstanceOf(Date);
    const custom = await polar.benefits.update({
      id: created.custom!,
      requestBody: { type: 'custom', metadata: { tier: 'platinum' } },
    });
    expect(custom.metadata).toEqual({ tier: 'platinum' });

    const error = await polar.benefits
      .update({
        id: created.custom!,
        requestBody: { type: 'meter_credit', properties: { units: 1, rollover: false, meterId } },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HTTPValidationError);
    expect((error as HTTPValidationError).detail?.[0]).toMatchObject({
      loc: ['body', 'type'],
      msg: 'Benefit type cannot be changed.',
    });
  });

  it('benefits.grants: an empty list, and grants with their customer', async () => {
    const empty = await polar.benefits.grants({ id: created.custom! });
    expect(empty.result).toEqual({ items: [], pagination: { totalCount: 0, maxPage: 0 } });
    await grantFactory(server, acme.organization.id, created.license_keys!);
    await grantFactory(server, acme.organization.id, created.license_keys!, { revoked: true });
    const pages = [];
    for await (const page of await polar.benefits.grants({ id: created.license_keys!, limit: 1 }))
      pages.push(page.result);
    expect(pages).toHaveLength(2);
    const grant = pages[0]!.items[0]!;
    expect(grant.customer.id).toBe(grant.customerId);
    expect(grant.customer.avatarUrl).toMatch(/^https:/);
    const granted = await polar.benefits.grants({ id: created.license_keys!, isGranted: true });
    expect(granted.result.items.map((g) => g.isGranted)).toEqual([true]);
  });

  it('benefits.delete, then ResourceNotFound; NotPermitted for a system benefit', async () => {
    await polar.benefits.delete({ id: created.custom! });
    await expect(polar.benefits.get({ id: created.custom! })).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(polar.benefits.delete({ id: created.custom! })).rejects.toBeInstanceOf(ResourceNotFound);
    const system = await benefitFactory(server, acme.organization.id, { deletable: false });
    const error = await polar.benefits.delete({ id: system.id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotPermitted);
    expect((error as NotPermitted).detail).toBe('Not permitted');
  });

  it("raises ResourceNotFound for another organization's benefit", async () => {
    const foreign = await benefitFactory(server, other.organization.id);
    await expect(polar.benefits.get({ id: foreign.id })).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(
      polar.benefits.update({ id: foreign.id, requestBody: { type: 'custom', description: 'Taken' } }),
    ).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(polar.benefits.grants({ id: foreign.id })).rejects.toBeInstanceOf(ResourceNotFound);
  });
});
