import { z } from 'zod/v4';
import type { Context } from '../context.js';
import type { WebhookEventType } from '../../modules/webhooks/webhooks.event-types.js';
import { findCustomerContact, findOrderForRefundEmail, findOrganizationForMail } from './mail.repository.js';
import { queueEmail } from './outbox.js';

/**
 * Customer emails that follow from domain events. `recordWebhookEvent` (platform/events.ts) hands every
 * event it records to `queueEmailsForEvent`, in the same transaction, so producers never know about
 * email: an order paid, a subscription canceled or revoked, a refund issued each email the customer
 * once, exactly when the event exists. The event's `data` is the wire object; it is read leniently (a
 * shape it does not recognise sends nothing rather than failing the producer's transaction).
 *
 * Which event sends which email (the seller turns each off in `customer_email_settings`):
 * - `order.paid`: `order_receipt`, or `subscription_renewal_receipt` for a `subscription_cycle` order;
 * - `subscription.canceled` while the subscription runs to its period end: `subscription_canceled`
 *   (canceled and ended at once, only the next one is sent);
 * - `subscription.revoked`: `subscription_ended`;
 * - `refund.created` or `refund.updated` of a refund that succeeded: `refund_issued`, once per refund (a
 *   refund first reported pending is emailed when it succeeds; `order.refunded` sends nothing more).
 * The dunning's failed and recovered payments have no event; the renewal engine queues those itself.
 */

const Customer = z.object({ email: z.string(), name: z.string().nullable().optional() });

const OrderPaid = z.object({
  id: z.string(),
  billing_reason: z.string(),
  currency: z.string(),
  subtotal_amount: z.number(),
  discount_amount: z.number(),
  tax_amount: z.number(),
  total_amount: z.number(),
  customer: Customer,
  product: z.object({ name: z.string() }),
  items: z.array(z.object({ label: z.string(), amount: z.number() })),
  subscription: z.object({ current_period_end: z.string().nullable().optional() }).nullable().optional(),
});

const SubscriptionEvent = z.object({
  id: z.string(),
  status: z.string(),
  current_period_end: z.string().nullable().optional(),
  ends_at: z.string().nullable().optional(),
  ended_at: z.string().nullable().optional(),
  customer: Customer,
  product: z.object({ name: z.string() }),
});

const RefundEvent = z.object({
  id: z.string(),
  status: z.string().optional(),
  amount: z.number(),
  tax_amount: z.number().optional(),
  currency: z.string(),
  order_id: z.string(),
  customer_id: z.string().optional(),
});

const HANDLED = new Set<WebhookEventType>([
  'order.paid',
  'subscription.canceled',
  'subscription.revoked',
  'refund.created',
  'refund.updated',
]);

const date = (value: string | null | undefined) => (value ? new Date(value) : null);

/** The customer portal's pages, for links in emails. */
export function portalUrls(baseUrl: string, slug: string) {
  const portal = `${baseUrl}/portal/${encodeURIComponent(slug)}`;
  return {
    portal,
    order: (id: string) => `${portal}/orders/${encodeURIComponent(id)}`,
    subscription: (id: string) => `${portal}/subscriptions/${encodeURIComponent(id)}`,
    paymentMethods: `${portal}/payment-methods`,
  };
}

/** The organization's portal links (undefined: no such organization). */
export async function organizationPortalUrls(ctx: Context, organizationId: string) {
  const organization = await findOrganizationForMail(ctx.db, organizationId);
  return organization ? portalUrls(ctx.config.baseUrl, organization.slug) : undefined;
}

export async function queueEmailsForEvent(
  ctx: Context,
  organizationId: string,
  type: WebhookEventType,
  data: unknown,
): Promise<void> {
  if (!HANDLED.has(type)) return;
  const organization = await findOrganizationForMail(ctx.db, organizationId);
  if (!organization) return;
  const urls = portalUrls(ctx.config.baseUrl, organization.slug);

  switch (type) {
    case 'order.paid': {
      const order = OrderPaid.safeParse(data);
      if (!order.success) return;
      const o = order.data;
      await queueEmail(ctx, {
        organizationId,
        organization,
        to: o.customer.email,
        template: o.billing_reason === 'subscription_cycle' ? 'subscription_renewal_receipt' : 'order_receipt',
        data: {
          customerName: o.customer.name ?? null,
          productName: o.product.name,
          items: o.items,
          subtotalAmount: o.subtotal_amount,
          discountAmount: o.discount_amount,
          taxAmount: o.tax_amount,
          totalAmount: o.total_amount,
          currency: o.currency,
          orderUrl: urls.order(o.id),
          nextRenewalAt: date(o.subscription?.current_period_end),
        },
      });
      return;
    }
    case 'subscription.canceled': {
      const parsed = SubscriptionEvent.safeParse(data);
      if (!parsed.success) return;
      const s = parsed.data;
      // Revoked at once: `subscription.revoked` follows in the same transaction and says it ended.
      if (s.ended_at) return;
      await queueEmail(ctx, {
        organizationId,
        organization,
        to: s.customer.email,
        template: 'subscription_canceled',
        data: {
          customerName: s.customer.name ?? null,
          productName: s.product.name,
          endsAt: date(s.ends_at) ?? date(s.current_period_end),
          subscriptionUrl: urls.subscription(s.id),
        },
      });
      return;
    }
    case 'subscription.revoked': {
      const parsed = SubscriptionEvent.safeParse(data);
      if (!parsed.success) return;
      const s = parsed.data;
      await queueEmail(ctx, {
        organizationId,
        organization,
        to: s.customer.email,
        template: 'subscription_ended',
        data: {
          customerName: s.customer.name ?? null,
          productName: s.product.name,
          endedAt: date(s.ended_at) ?? ctx.clock.now(),
          reason: null,
          portalUrl: urls.portal,
        },
      });
      return;
    }
    case 'refund.created':
    case 'refund.updated': {
      const parsed = RefundEvent.safeParse(data);
      if (!parsed.success) return;
      const r = parsed.data;
      if (r.status !== undefined && r.status !== 'succeeded') return;
      const order = await findOrderForRefundEmail(ctx.db, organizationId, r.order_id);
      if (!order) return;
      const customer = await findCustomerContact(ctx.db, r.customer_id ?? order.customer_id);
      if (!customer) return;
      await queueEmail(ctx, {
        organizationId,
        organization,
        to: customer.email,
        template: 'refund_issued',
        once: r.id,
        data: {
          customerName: customer.name,
          productName: order.product_name,
          amount: r.amount,
          taxAmount: r.tax_amount ?? 0,
          currency: r.currency,
          orderUrl: urls.order(order.id),
        },
      });
      return;
    }
    default:
      return;
  }
}
