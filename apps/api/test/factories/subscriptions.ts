import type { SubscriptionWire } from '../../src/modules/subscriptions/subscriptions.serializer.js';
import { ADDRESS, CARDS, checkoutFactory, confirmationToken } from './checkouts.js';
import { productFactory } from './products.js';
import type { TestServer } from '../harness.js';

export interface SubscriptionFactoryOptions {
  productId?: string;
  interval?: 'month' | 'year';
  price?: number;
  card?: string;
  email?: string;
  discountId?: string;
}

/**
 * A subscription as a buyer starts one: a recurring product ($10/month unless told), a checkout, a
 * confirmation with a card saved for renewals. Returns the subscription as the API shows it.
 */
export async function subscriptionFactory(
  server: TestServer,
  organizationId: string,
  options: SubscriptionFactoryOptions = {},
): Promise<SubscriptionWire> {
  const productId =
    options.productId ??
    (
      await productFactory(server, organizationId, {
        recurring_interval: options.interval ?? 'month',
        prices: [{ amount_type: 'fixed', price_amount: options.price ?? 1000 }],
      })
    ).product.id;
  const checkout = await checkoutFactory(server, organizationId, [productId], {
    ...(options.discountId ? { discount_id: options.discountId } : {}),
  });
  const response = await server.inject({
    method: 'POST',
    url: `/v1/checkouts/client/${checkout.client_secret}/confirm`,
    payload: {
      customer_email: options.email ?? `buyer-${checkout.id.slice(0, 8)}@example.com`,
      customer_name: 'Sam Buyer',
      customer_billing_address: ADDRESS,
      confirmation_token_id: await confirmationToken(server, options.card ?? CARDS.visa),
    },
  });
  if (response.statusCode !== 200) throw new Error(`confirm: ${response.statusCode} ${response.body}`);
  const row = await server.runtime.database.db
    .selectFrom('subscriptions')
    .select('id')
    .where('checkout_id', '=', checkout.id)
    .executeTakeFirstOrThrow();
  const ctx = server.context({
    kind: 'organization',
    organizationId,
    tokenId: 'factory',
    scopes: new Set(['subscriptions:read']),
  });
  const { getSubscription } = await import('../../src/modules/subscriptions/subscriptions.service.js');
  return getSubscription(ctx, row.id);
}
