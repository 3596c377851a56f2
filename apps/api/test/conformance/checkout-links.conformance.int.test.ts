import { Polar } from '@polar-sh/sdk';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
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

describe('checkout links through @polar-sh/sdk', () => {
  it('creates with each form, reads, lists page by page, updates and deletes', async () => {
    const product = await polar.products.create({
      name: 'Pro',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 2000, priceCurrency: 'usd' }],
    });
    const ebook = await polar.products.create({
      name: 'E-book',
      recurringInterval: null,
      prices: [{ amountType: 'free' }],
    });
    const benefit = await polar.benefits.create({
      type: 'custom',
      description: 'Welcome note',
      properties: { note: 'Hi' },
    });
    await polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [benefit.id] } });
    const discount = await polar.discounts.create({
      name: 'Launch',
      type: 'percentage',
      duration: 'repeating',
      durationInMonths: 2,
      basisPoints: 2000,
    });

    const byProducts = await polar.checkoutLinks.create({
      products: [product.id, ebook.id],
      label: 'Both',
      successUrl: 'https://shop.example/thanks',
      metadata: { source: 'newsletter' },
    });
    const byProduct = await polar.checkoutLinks.create({ productId: product.id, discountId: discount.id });
    const byPrice = await polar.checkoutLinks.create({
      productPriceId: ebook.prices[0]!.id,
      requireBillingAddress: true,
    });
    expect(byProducts.products.map((p) => p.id)).toEqual([product.id, ebook.id]);
    expect(byProducts.products[0]!.benefits.map((b) => b.id)).toEqual([benefit.id]);
    expect(byProduct.discount?.id).toBe(discount.id);
    expect(byPrice).toMatchObject({
      requireBillingAddress: true,
      allowDiscountCodes: true,
      paymentProcessor: 'stripe',
    });
    expect(byPrice.url).toContain(byPrice.clientSecret);

    expect((await polar.checkoutLinks.get({ id: byProducts.id })).label).toBe('Both');

    const ids: string[] = [];
    let pages = 0;
    for await (const page of await polar.checkoutLinks.list({ limit: 2 })) {
      pages++;
      ids.push(...page.result.items.map((l) => l.id));
    }
    expect(pages).toBe(2);
    expect(ids.sort()).toEqual([byProducts.id, byProduct.id, byPrice.id].sort());
    expect((await polar.checkoutLinks.list({ productId: ebook.id })).result.items).toHaveLength(2);

    const updated = await polar.checkoutLinks.update({
      id: byProduct.id,
      checkoutLinkUpdate: { label: 'Discounted', discountId: null, allowDiscountCodes: false },
    });
    expect(updated).toMatchObject({ label: 'Discounted', discountId: null, discount: null, allowDiscountCodes: false });

    await polar.checkoutLinks.delete({ id: byPrice.id });
    await expect(polar.checkoutLinks.get({ id: byPrice.id })).rejects.toBeInstanceOf(ResourceNotFound);
  });
});
