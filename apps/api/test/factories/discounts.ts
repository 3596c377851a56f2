import { randomBytes, randomUUID } from 'node:crypto';
import { insertRedemption } from '../../src/modules/discounts/discounts.repository.js';
import { DiscountCreate } from '../../src/modules/discounts/discounts.schemas.js';
import type { DiscountWire } from '../../src/modules/discounts/discounts.serializer.js';
import { createDiscount } from '../../src/modules/discounts/discounts.service.js';
import type { TestServer } from '../harness.js';

/** A discount of the organization, created through the service; 10 % off once unless told. */
export async function discountFactory(
  server: TestServer,
  organizationId: string,
  overrides: Record<string, unknown> = {},
): Promise<DiscountWire> {
  const ctx = server.context({
    kind: 'organization',
    organizationId,
    tokenId: 'factory',
    scopes: new Set(['discounts:write']),
  });
  const body = DiscountCreate.parse({
    name: `Discount ${randomBytes(3).toString('hex')}`,
    type: 'percentage',
    duration: 'once',
    basis_points: 1000,
    ...overrides,
  });
  return server.runtime.database.db.transaction().execute((tx) => createDiscount({ ...ctx, db: tx }, body));
}

/** Records a redemption as checkout confirm will. */
export async function redeem(server: TestServer, discountId: string): Promise<void> {
  await insertRedemption(server.runtime.database.db, {
    id: randomUUID(),
    created_at: server.clock.now(),
    discount_id: discountId,
  });
}
