import { Polar } from '@polar-sh/sdk';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { productFactory } from '../factories/products.js';
import { startTestServer, type TestServer } from '../harness.js';

let server: TestServer;
let acme: OrganizationFixture;
let polar: Polar;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  acme = await organizationFactory(server, { name: 'Acme' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
});
afterAll(() => server?.stop());

describe('discounts through @polar-sh/sdk', () => {
  it('creates every variant (fixed/percentage × once/forever/repeating) and reads them back', async () => {
    const { product } = await productFactory(server, acme.organization.id, { recurring_interval: 'month' });
    const created = [
      await polar.discounts.create({
        name: 'Fixed once',
        type: 'fixed',
        duration: 'once',
        amount: 500,
        code: 'FIXEDONCE',
      }),
      await polar.discounts.create({
        name: 'Fixed forever',
        type: 'fixed',
        duration: 'forever',
        amount: 100,
        currency: 'usd',
      }),
      await polar.discounts.create({
        name: 'Fixed repeating',
        type: 'fixed',
        duration: 'repeating',
        durationInMonths: 3,
        amount: 250,
        products: [product.id],
        metadata: { campaign: 'spring', tier: 2, vip: true },
      }),
      await polar.discounts.create({ name: 'Percent once', type: 'percentage', duration: 'once', basisPoints: 1250 }),
      await polar.discounts.create({
        name: 'Percent repeating',
        type: 'percentage',
        duration: 'repeating',
        durationInMonths: 12,
        basisPoints: 5000,
        startsAt: new Date('2026-02-01T00:00:00Z'),
        endsAt: new Date('2026-12-31T00:00:00Z'),
        maxRedemptions: 100,
      }),
    ];
    expect(created.map((d) => [d.type, d.duration])).toEqual([
      ['fixed', 'once'],
      ['fixed', 'forever'],
      ['fixed', 'repeating'],
      ['percentage', 'once'],
      ['percentage', 'repeating'],
    ]);
    const repeating = created[2]!;
    expect(repeating).toMatchObject({
      durationInMonths: 3,
      amount: 250,
      currency: 'usd',
      metadata: { campaign: 'spring', tier: 2, vip: true },
    });
    expect(repeating.products.map((p) => p.id)).toEqual([product.id]);
    for (const discount of created) {
      const read = await polar.discounts.get({ id: discount.id });
      expect(read.id).toBe(discount.id);
    }
  });

  it('iterates the list page by page', async () => {
    const seen: string[] = [];
    let pages = 0;
    for await (const page of await polar.discounts.list({ limit: 2, sorting: ['name'] })) {
      pages++;
      seen.push(...page.result.items.map((d) => d.name));
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(['Fixed forever', 'Fixed once', 'Fixed repeating', 'Percent once', 'Percent repeating']);
  });

  it('updates (the SDK always sends currency "usd"), and reports a changed type as a validation error', async () => {
    const discount = await polar.discounts.create({
      name: 'To update',
      type: 'percentage',
      duration: 'once',
      basisPoints: 100,
    });
    const updated = await polar.discounts.update({
      id: discount.id,
      discountUpdate: { name: 'Updated', basisPoints: 200, code: 'UPDATED1' },
    });
    expect(updated).toMatchObject({ name: 'Updated', basisPoints: 200, code: 'UPDATED1' });
    const error = await polar.discounts
      .update({ id: discount.id, discountUpdate: { type: 'fixed' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HTTPValidationError);
  });

  it('deletes, then answers ResourceNotFound', async () => {
    const discount = await polar.discounts.create({ name: 'To delete', type: 'fixed', duration: 'once', amount: 1 });
    await polar.discounts.delete({ id: discount.id });
    await expect(polar.discounts.get({ id: discount.id })).rejects.toBeInstanceOf(ResourceNotFound);
  });
});
