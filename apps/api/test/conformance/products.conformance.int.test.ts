import { randomUUID } from 'node:crypto';
import { Polar } from '@polar-sh/sdk';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { NotPermitted } from '@polar-sh/sdk/models/errors/notpermitted.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import type { CustomFieldCreate } from '@polar-sh/sdk/models/components/customfieldcreate.js';
import type { Product } from '@polar-sh/sdk/models/components/product.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benefitFactory, guildToken, meterFactory } from '../factories/benefits.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { productFactory } from '../factories/products.js';
import { startTestServer, type TestServer } from '../harness.js';

/**
 * Drives the products API through the official `@polar-sh/sdk@0.33.2`; every response passes the SDK's
 * own validation or the call throws `ResponseValidationError`, failing the test.
 */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;
let polar: Polar;
let meterId: string;
let secondMeterId: string;
const benefitIds: Record<string, string> = {};
const customFieldIds: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
  await polar.organizations.update({
    id: acme.organization.id,
    organizationUpdate: { featureSettings: { usageBasedBillingEnabled: true } },
  });
  meterId = (await meterFactory(server, acme.organization.id, { name: 'API calls' })).id;
  secondMeterId = (await meterFactory(server, acme.organization.id, { name: 'Storage' })).id;

  // One benefit of every type, through the SDK where the API can create it.
  benefitIds.custom = (
    await polar.benefits.create({ type: 'custom', description: 'Priority support', properties: { note: 'Hi' } })
  ).id;
  benefitIds.discord = (
    await polar.benefits.create({
      type: 'discord',
      description: 'Discord role',
      properties: { guildToken: guildToken(server, '1122334455'), roleId: '99887766' },
    })
  ).id;
  benefitIds.github_repository = (
    await polar.benefits.create({
      type: 'github_repository',
      description: 'Repository access',
      properties: { repositoryOwner: 'acme', repositoryName: 'sdk', permission: 'pull' },
    })
  ).id;
  benefitIds.license_keys = (
    await polar.benefits.create({
      type: 'license_keys',
      description: 'License key',
      properties: {
        prefix: 'ACME',
        expires: { ttl: 1, timeframe: 'year' },
        activations: { limit: 3, enableCustomerAdmin: true },
      },
    })
  ).id;
  benefitIds.meter_credit = (
    await polar.benefits.create({
      type: 'meter_credit',
      description: 'API credits',
      properties: { units: 1000, rollover: true, meterId },
    })
  ).id;
  // Downloadables need uploaded files, which arrive with the files module: stored directly.
  const fileId = randomUUID();
  benefitIds.downloadables = (
    await benefitFactory(server, acme.organization.id, {
      type: 'downloadables',
      description: 'Downloads',
      properties: { archived: { [fileId]: false }, files: [fileId] },
    })
  ).id;

  // One custom field of every type.
  const fields: CustomFieldCreate[] = [
    { type: 'text', slug: 'company', name: 'Company', properties: { textarea: false, minLength: 2 } },
    { type: 'number', slug: 'seats', name: 'Seats', properties: { ge: 1, le: 100 } },
    { type: 'date', slug: 'start', name: 'Start date', properties: {} },
    { type: 'checkbox', slug: 'terms', name: 'Terms', properties: { formLabel: 'I agree' } },
    {
      type: 'select',
      slug: 'size',
      name: 'Size',
      properties: {
        options: [
          { value: 's', label: 'Small' },
          { value: 'l', label: 'Large' },
        ],
      },
    },
  ];
  for (const field of fields) customFieldIds.push((await polar.customFields.create(field)).id);
});
afterAll(() => server?.stop());

describe('products through @polar-sh/sdk', () => {
  let recurring: Product;
  let oneTime: Product;

  it('products.create: a recurring product with fixed and metered prices, and a custom field of every type', async () => {
    recurring = await polar.products.create({
      name: 'Pro plan',
      description: 'Everything',
      recurringInterval: 'month',
      metadata: { tier: 'pro', seats: 5, beta: true },
      prices: [
        { amountType: 'fixed', priceAmount: 2500 },
        { amountType: 'metered_unit', meterId, unitAmount: 0.5, capAmount: 100_000 },
        { amountType: 'metered_unit', meterId: secondMeterId, unitAmount: '0.000000000001' },
      ],
      attachedCustomFields: customFieldIds.map((customFieldId, index) => ({ customFieldId, required: index === 0 })),
    });
    expect(recurring).toMatchObject({
      name: 'Pro plan',
      recurringInterval: 'month',
      isRecurring: true,
      isArchived: false,
      organizationId: acme.organization.id,
      metadata: { tier: 'pro', seats: 5, beta: true },
      benefits: [],
      medias: [],
    });
    expect(recurring.createdAt).toBeInstanceOf(Date);
    expect(recurring.prices.map((p) => p.amountType)).toEqual(['fixed', 'metered_unit', 'metered_unit']);
    expect(recurring.prices[1]).toMatchObject({
      unitAmount: '0.5',
      capAmount: 100_000,
      meterId,
      meter: { id: meterId, name: 'API calls' },
      priceCurrency: 'usd',
      recurringInterval: 'month',
    });
    expect(recurring.prices[2]).toMatchObject({ unitAmount: '0.000000000001', capAmount: null });
    expect(
      recurring.attachedCustomFields.map((f) => [f.customFieldId, f.customField.type, f.order, f.required]),
    ).toEqual(
      customFieldIds.map((id, index) => [
        id,
        ['text', 'number', 'date', 'checkbox', 'select'][index],
        index,
        index === 0,
      ]),
    );
  });

  it('products.create: a one-time product, with each static price kind in turn', async () => {
    const kinds = [
      { amountType: 'fixed' as const, priceAmount: 1000 },
      { amountType: 'custom' as const, minimumAmount: 500, maximumAmount: 10_000, presetAmount: 2000 },
      { amountType: 'custom' as const },
      { amountType: 'free' as const },
    ];
    for (const price of kinds) {
      oneTime = await polar.products.create({
        name: `Ebook ${price.amountType}`,
        recurringInterval: null,
        prices: [price],
      });
      expect(oneTime.isRecurring).toBe(false);
      expect(oneTime.prices).toHaveLength(1);
      expect(oneTime.prices[0]).toMatchObject({
        ...price,
        type: 'one_time',
        recurringInterval: null,
        isArchived: false,
      });
    }
  });

  it('every price type and every benefit type round-trip through the SDK', async () => {
    // Recurring: custom and free (static) in turn next to the metered one, all four kinds seen.
    const custom = await polar.products.update({
      id: recurring.id,
      productUpdate: {
        prices: [
          { id: recurring.prices[1]!.id },
          { amountType: 'custom', minimumAmount: 0, presetAmount: 900 },
          { id: recurring.prices[2]!.id },
        ],
      },
    });
    expect(custom.prices.map((p) => p.amountType)).toEqual(['custom', 'metered_unit', 'metered_unit']);
    const free = await polar.products.update({
      id: recurring.id,
      productUpdate: {
        prices: [{ amountType: 'free' }, { id: recurring.prices[1]!.id }, { id: recurring.prices[2]!.id }],
      },
    });
    expect(free.prices.map((p) => p.amountType)).toEqual(['free', 'metered_unit', 'metered_unit']);
    const fixed = await polar.products.update({
      id: recurring.id,
      productUpdate: {
        prices: [
          { amountType: 'fixed', priceAmount: 4900 },
          { id: recurring.prices[1]!.id },
          { id: recurring.prices[2]!.id },
        ],
      },
    });
    expect(fixed.prices.map((p) => p.amountType)).toEqual(['fixed', 'metered_unit', 'metered_unit']);

    const ordered = Object.values(benefitIds);
    const withBenefits = await polar.products.updateBenefits({
      id: recurring.id,
      productBenefitsUpdate: { benefits: ordered },
    });
    expect(withBenefits.benefits.map((b) => b.id)).toEqual(ordered);
    expect(withBenefits.benefits.map((b) => b.type).sort()).toEqual([
      'custom',
      'discord',
      'downloadables',
      'github_repository',
      'license_keys',
      'meter_credit',
    ]);

    const read = await polar.products.get({ id: recurring.id });
    expect(read.benefits).toHaveLength(6);
    expect(read.attachedCustomFields).toHaveLength(5);
    expect(read.prices).toHaveLength(3);
    const listed = await polar.products.list({ id: recurring.id });
    expect(listed.result.items[0]!.benefits).toHaveLength(6);
  });

  it('products.list, paging through the iterator over more than one page, with filters and sorting', async () => {
    const before = (await polar.products.list({ limit: 100 })).result.pagination.totalCount;
    expect(before).toBeGreaterThanOrEqual(5);
    const seen: string[] = [];
    let pages = 0;
    for await (const page of await polar.products.list({ limit: 2, sorting: ['name'] })) {
      pages += 1;
      seen.push(...page.result.items.map((p) => p.id));
    }
    expect(pages).toBe(Math.ceil(before / 2));
    expect(new Set(seen).size).toBe(before);

    const filtered = await polar.products.list({
      organizationId: acme.organization.id,
      isRecurring: true,
      isArchived: false,
      query: 'PRO',
      benefitId: [benefitIds.custom!],
      sorting: ['-price_amount', 'price_amount_type', '-created_at'],
    });
    expect(filtered.result.items.map((p) => p.id)).toEqual([recurring.id]);
  });

  it('products.update: archiving, and a typed error for a bad body', async () => {
    const archived = await polar.products.update({
      id: oneTime.id,
      productUpdate: { isArchived: true, name: 'Old ebook' },
    });
    expect(archived).toMatchObject({ isArchived: true, name: 'Old ebook' });
    expect(archived.modifiedAt).toBeInstanceOf(Date);

    const error = await polar.products
      .update({ id: recurring.id, productUpdate: { recurringInterval: 'year' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HTTPValidationError);
    expect((error as HTTPValidationError).detail).toEqual([
      { loc: ['body', 'recurring_interval'], msg: 'Recurring interval cannot be changed.', type: 'value_error' },
    ]);
  });

  it('products.updateBenefits: NotPermitted for a non-selectable benefit', async () => {
    const system = await benefitFactory(server, acme.organization.id, { selectable: false, deletable: false });
    const error = await polar.products
      .updateBenefits({ id: oneTime.id, productBenefitsUpdate: { benefits: [system.id] } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotPermitted);
  });

  it("raises ResourceNotFound for another organization's product", async () => {
    const foreign = (await productFactory(server, other.organization.id)).product.id;
    await expect(polar.products.get({ id: foreign })).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(polar.products.update({ id: foreign, productUpdate: { name: 'Taken' } })).rejects.toBeInstanceOf(
      ResourceNotFound,
    );
    await expect(
      polar.products.updateBenefits({ id: foreign, productBenefitsUpdate: { benefits: [] } }),
    ).rejects.toBeInstanceOf(ResourceNotFound);
  });
});
