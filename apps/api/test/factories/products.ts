import { randomBytes } from 'node:crypto';
import { ProductCreate } from '../../src/modules/products/products.schemas.js';
import { createProduct } from '../../src/modules/products/products.service.js';
import type { ProductBundle } from '../../src/modules/products/products.serializer.js';
import type { TestServer } from '../harness.js';

export type ProductFactoryInput = Partial<Record<keyof typeof ProductCreate.shape, unknown>>;

/**
 * A product of the organization, created through the service as its own token would (the body goes
 * through the wire schema, so defaults apply). One-time with one fixed $10 price unless told.
 */
export async function productFactory(
  server: TestServer,
  organizationId: string,
  overrides: ProductFactoryInput = {},
): Promise<ProductBundle> {
  const ctx = server.context({
    kind: 'organization',
    organizationId,
    tokenId: 'factory',
    scopes: new Set(['products:write']),
  });
  const body = ProductCreate.parse({
    name: `Product ${randomBytes(3).toString('hex')}`,
    recurring_interval: null,
    prices: [{ amount_type: 'fixed', price_amount: 1000 }],
    ...overrides,
  });
  return createProduct(ctx, body);
}

/** Create-body prices of every kind (the metered one needs a meter of the organization). */
export const fixedPrice = (price_amount = 1000, price_currency?: string) => ({
  amount_type: 'fixed',
  price_amount,
  ...(price_currency ? { price_currency } : {}),
});
export const customPrice = (
  amounts: { minimum_amount?: number | null; maximum_amount?: number | null; preset_amount?: number | null } = {},
) => ({
  amount_type: 'custom',
  ...amounts,
});
export const freePrice = () => ({ amount_type: 'free' });
export const meteredPrice = (
  meter_id: string,
  unit_amount: number | string = '0.5',
  cap_amount: number | null = null,
) => ({
  amount_type: 'metered_unit',
  meter_id,
  unit_amount,
  cap_amount,
});
