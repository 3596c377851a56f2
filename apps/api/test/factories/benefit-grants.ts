import { randomBytes, randomUUID } from 'node:crypto';
import type { BenefitGrantRow, BenefitRow } from '../../src/modules/benefits/benefits.repository.js';
import type { Context } from '../../src/platform/context.js';
import { bearer, json, type TestServer } from '../harness.js';
import { benefitFactory, meterFactory } from './benefits.js';
import { ADDRESS, checkoutFactory, confirmationToken } from './checkouts.js';
import type { OrganizationFixture } from './organizations.js';
import { productFactory } from './products.js';

/** Stored properties of each benefit type, as the benefits service would store them. */
export async function storedPropertiesFor(server: TestServer, organizationId: string, type: string) {
  switch (type) {
    case 'custom':
      return { note: 'Welcome aboard' };
    case 'discord':
      return { guild_id: '1234567890', role_id: '987654321', guild_token: 'stored-token' };
    case 'github_repository':
      return { repository_owner: 'acme', repository_name: 'private-repo', permission: 'pull' };
    case 'downloadables':
      return { archived: {}, files: [randomUUID()] };
    case 'license_keys':
      return {
        prefix: 'acme',
        expires: { ttl: 1, timeframe: 'year' },
        activations: { limit: 3, enable_customer_admin: true },
        limit_usage: 10,
      };
    case 'meter_credit':
      return { units: 100, rollover: false, meter_id: (await meterFactory(server, organizationId)).id };
    default:
      throw new Error(`unknown type ${type}`);
  }
}

export async function typedBenefitFactory(
  server: TestServer,
  organizationId: string,
  type: string,
  properties?: unknown,
): Promise<BenefitRow> {
  return benefitFactory(server, organizationId, {
    type,
    properties: properties ?? (await storedPropertiesFor(server, organizationId, type)),
  });
}

export interface Purchase {
  checkoutId: string;
  customerId: string;
  orderId: string;
  subscriptionId: string | null;
  productId: string;
}

/**
 * A real purchase of a product carrying `benefitIds`: the product's benefits set through the API, a
 * checkout confirmed with the simulated processor's card.
 */
export async function purchaseFactory(
  server: TestServer,
  org: OrganizationFixture,
  benefitIds: string[],
  options: { recurring?: boolean; email?: string } = {},
): Promise<Purchase> {
  const { product } = await productFactory(server, org.organization.id, {
    recurring_interval: options.recurring ? 'month' : null,
  });
  const attached = await server.inject({
    method: 'POST',
    url: `/v1/products/${product.id}/benefits`,
    headers: bearer(org.token),
    payload: { benefits: benefitIds },
  });
  if (attached.statusCode !== 200) throw new Error(`attach benefits: ${attached.statusCode} ${attached.body}`);
  const checkout = await checkoutFactory(server, org.organization.id, [product.id]);
  const confirmed = await server.inject({
    method: 'POST',
    url: `/v1/checkouts/client/${checkout.client_secret}/confirm`,
    payload: {
      customer_email: options.email ?? `buyer-${randomBytes(4).toString('hex')}@example.com`,
      customer_name: 'Buyer',
      customer_billing_address: ADDRESS,
      confirmation_token_id: await confirmationToken(server),
    },
  });
  if (confirmed.statusCode !== 200) throw new Error(`confirm: ${confirmed.statusCode} ${confirmed.body}`);
  const order = await server.runtime.database.db
    .selectFrom('orders')
    .selectAll()
    .where('checkout_id', '=', checkout.id)
    .executeTakeFirstOrThrow();
  return {
    checkoutId: checkout.id,
    customerId: json(confirmed).customer_id ?? order.customer_id,
    orderId: order.id,
    subscriptionId: order.subscription_id,
    productId: product.id,
  };
}

/** Polls until the grant of (customer, benefit) satisfies `ready` (the worker runs the jobs). */
export async function waitForGrant(
  server: TestServer,
  customerId: string,
  benefitId: string,
  ready: (grant: BenefitGrantRow) => boolean,
  timeoutMs = 15_000,
): Promise<BenefitGrantRow> {
  const deadline = Date.now() + timeoutMs;
  let last: BenefitGrantRow | undefined;
  while (Date.now() < deadline) {
    last = await server.runtime.database.db
      .selectFrom('benefit_grants')
      .selectAll()
      .where('customer_id', '=', customerId)
      .where('benefit_id', '=', benefitId)
      .executeTakeFirst();
    if (last && ready(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`grant not ready: ${JSON.stringify(last)}`);
}

/** Runs `fn` in a committed transaction with a system context (as another module's service would). */
export async function inTransaction<T>(server: TestServer, fn: (ctx: Context) => Promise<T>): Promise<T> {
  return server.runtime.database.db
    .transaction()
    .execute((tx) => fn(server.runtime.context(tx, { kind: 'anonymous' })));
}
