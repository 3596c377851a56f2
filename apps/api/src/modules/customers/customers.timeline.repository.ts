import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { PageParams } from '../../platform/http/query.js';

export interface TimelineRow {
  id: string;
  type: 'order' | 'payment' | 'refund' | 'subscription_change' | 'benefit_granted' | 'benefit_revoked' | 'email';
  occurred_at: Date;
  resource_id: string;
  status: string | null;
  amount: number | null;
  currency: string | null;
  description: string | null;
  subscription_id: string | null;
  details: unknown;
}

/**
 * Everything that happened to one customer, newest first, read from the tables that already hold it:
 * orders, payments (of its orders and checkouts), refunds, the subscriptions' history
 * (subscription_changes), benefit grants granted and revoked, and emails sent to its current address
 * by its organization. The caller found the customer visible; every branch is keyed by its id (and the
 * emails by its organization).
 */
function timeline(db: Executor, customer: { id: string; organization_id: string; email: string }) {
  return sql<TimelineRow>`
    SELECT o.id::text AS id, 'order' AS type, o.created_at AS occurred_at, o.id::text AS resource_id,
           o.status AS status, o.total_amount AS amount, o.currency AS currency,
           o.billing_reason AS description, o.subscription_id::text AS subscription_id, NULL::jsonb AS details
      FROM orders o WHERE o.customer_id = ${customer.id}
    UNION ALL
    SELECT p.id::text, 'payment', p.created_at, p.id::text, p.status, p.amount, p.currency,
           p.decline_message, o.subscription_id::text, NULL::jsonb
      FROM payments p
      LEFT JOIN orders o ON o.id = p.order_id
      LEFT JOIN checkouts c ON c.id = p.checkout_id
     WHERE p.organization_id = ${customer.organization_id}
       AND (o.customer_id = ${customer.id} OR (p.order_id IS NULL AND c.customer_id = ${customer.id}))
    UNION ALL
    SELECT r.id::text, 'refund', r.created_at, r.id::text, r.status, r.amount + r.tax_amount, r.currency,
           r.reason, r.subscription_id::text, NULL::jsonb
      FROM refunds r WHERE r.customer_id = ${customer.id}
    UNION ALL
    SELECT sc.id::text, 'subscription_change', sc.created_at, sc.subscription_id::text, sc.kind, NULL, NULL,
           NULL, sc.subscription_id::text, sc.details
      FROM subscription_changes sc WHERE sc.customer_id = ${customer.id}
    UNION ALL
    SELECT g.id::text || ':granted', 'benefit_granted', g.granted_at, g.id::text, NULL, NULL, NULL,
           b.description, g.subscription_id::text, NULL::jsonb
      FROM benefit_grants g JOIN benefits b ON b.id = g.benefit_id
     WHERE g.customer_id = ${customer.id} AND g.granted_at IS NOT NULL
    UNION ALL
    SELECT g.id::text || ':revoked', 'benefit_revoked', g.revoked_at, g.id::text, NULL, NULL, NULL,
           b.description, g.subscription_id::text, NULL::jsonb
      FROM benefit_grants g JOIN benefits b ON b.id = g.benefit_id
     WHERE g.customer_id = ${customer.id} AND g.revoked_at IS NOT NULL
    UNION ALL
    SELECT e.id::text, 'email', e.created_at, e.id::text, e.status, NULL, NULL, e.subject, NULL, NULL::jsonb
      FROM emails e
     WHERE e.organization_id = ${customer.organization_id} AND ${customer.email} = ANY(e.to_addresses)
  `;
}

export async function findCustomerTimeline(
  db: Executor,
  customer: { id: string; organization_id: string; email: string },
  params: PageParams,
): Promise<{ rows: TimelineRow[]; total: number }> {
  const offset = (params.page - 1) * params.limit;
  const result = await sql<TimelineRow & { total: string }>`
    SELECT t.*, count(*) OVER () AS total FROM (${timeline(db, customer)}) t
     ORDER BY t.occurred_at DESC, t.id DESC
     LIMIT ${params.limit} OFFSET ${offset}
  `.execute(db);
  if (result.rows.length > 0) return { rows: result.rows, total: Number(result.rows[0]!.total) };
  const counted = await sql<{ n: string }>`SELECT count(*) AS n FROM (${timeline(db, customer)}) t`.execute(db);
  return { rows: [], total: Number(counted.rows[0]!.n) };
}

export interface LifetimeValueRow {
  currency: string;
  paid: string;
  refunded: string;
}

/** Per currency: what the customer's paid orders charged, and what was refunded of them (tax included). */
export async function findCustomerLifetimeValue(db: Executor, customerId: string): Promise<LifetimeValueRow[]> {
  const result = await sql<LifetimeValueRow>`
    SELECT currency, sum(total_amount)::text AS paid, sum(refunded_amount + refunded_tax_amount)::text AS refunded
      FROM orders
     WHERE customer_id = ${customerId} AND status IN ('paid', 'refunded', 'partially_refunded')
     GROUP BY currency ORDER BY currency
  `.execute(db);
  return result.rows;
}
