import { CheckoutLinkCreate } from '../../src/modules/checkout-links/checkout-links.schemas.js';
import { createCheckoutLink, type CheckoutLinkWire } from '../../src/modules/checkout-links/checkout-links.service.js';
import type { TestServer } from '../harness.js';

/** A checkout link of the organization for these products, created through the service. */
export async function checkoutLinkFactory(
  server: TestServer,
  organizationId: string,
  productIds: string[],
  overrides: Record<string, unknown> = {},
): Promise<CheckoutLinkWire> {
  const ctx = server.context({
    kind: 'organization',
    organizationId,
    tokenId: 'factory',
    scopes: new Set(['checkout_links:write']),
  });
  const body = CheckoutLinkCreate.parse({ products: productIds, ...overrides });
  return server.runtime.database.db.transaction().execute((tx) => createCheckoutLink({ ...ctx, db: tx }, body));
}
