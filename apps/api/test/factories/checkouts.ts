import { onOrganizationClock } from '../../src/platform/test-clock.js';
import { CheckoutCreate } from '../../src/modules/checkouts/checkouts.schemas.js';
import { createCheckout } from '../../src/modules/checkouts/checkouts.create.js';
import type { CheckoutWire } from '../../src/modules/checkouts/checkouts.serializer.js';
import type { TestServer } from '../harness.js';

/**
 * A checkout of the organization's products, created through the service as its token would (on the
 * organization's test clock, as a request with its token is).
 */
export async function checkoutFactory(
  server: TestServer,
  organizationId: string,
  products: string[],
  overrides: Record<string, unknown> = {},
): Promise<CheckoutWire> {
  const ctx = server.context({
    kind: 'organization',
    organizationId,
    tokenId: 'factory',
    scopes: new Set(['checkouts:write']),
  });
  const body = CheckoutCreate.parse({ products, ...overrides });
  return server.runtime.database.db
    .transaction()
    .execute(async (tx) => createCheckout(await onOrganizationClock({ ...ctx, db: tx }, organizationId), body));
}

/** Stripe's test cards, as the simulated processor reads them. */
export const CARDS = {
  visa: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

/** A confirmation token from the simulated processor, as the checkout page gets one. */
export async function confirmationToken(server: TestServer, number: string = CARDS.visa): Promise<string> {
  const response = await server.inject({
    method: 'POST',
    url: '/simulated-processor/confirmation-tokens',
    payload: { card: { number, exp_month: 12, exp_year: 2034, cvc: '123' } },
  });
  if (response.statusCode !== 201) throw new Error(`confirmation token: ${response.statusCode} ${response.body}`);
  return (JSON.parse(response.body) as { id: string }).id;
}

/** A billing address that satisfies a paid checkout. */
export const ADDRESS = { country: 'FR', line1: '1 rue de Rivoli', city: 'Paris', postal_code: '75001' };
