import type { Executor } from '../../platform/db/database.js';
import type { Metadata } from '../../platform/http/metadata.js';
import { iso } from '../../platform/http/schemas.js';
import {
  findActiveSubscriptionsOfCustomer,
  findGrantedBenefitsOfCustomer,
} from '../benefit-grants/benefit-grants.repository.js';
import { subscriptionMeters } from '../billing/billing.usage.js';
import { customerMeters } from '../customer-meters/customer-meters.service.js';
import type { CustomerRow } from './customers.repository.js';
import { serializeCustomerState, type CustomerStateWire } from './customers.serializer.js';

type StateParts = Pick<CustomerStateWire, 'active_subscriptions' | 'granted_benefits' | 'active_meters'>;

/**
 * The customer's state: active subscriptions, granted benefits and meter balances. A custom benefit's
 * note is shown to the customer here (in the grant's `properties`), current as the benefit says it.
 */
export async function customerStateOf(db: Executor, row: CustomerRow): Promise<CustomerStateWire> {
  const [subscriptions, grants, meters] = await Promise.all([
    findActiveSubscriptionsOfCustomer(db, row.id),
    findGrantedBenefitsOfCustomer(db, row.id),
    customerMeters({ db }, row),
  ]);
  const usage = await subscriptionMeters({ db }, subscriptions);
  const parts: StateParts = {
    active_subscriptions: subscriptions.map((s) => ({
      id: s.id,
      created_at: iso(s.created_at),
      modified_at: iso(s.modified_at),
      custom_field_data: (s.custom_field_data ?? {}) as StateParts['active_subscriptions'][number]['custom_field_data'],
      metadata: (s.metadata ?? {}) as Metadata,
      status: 'active',
      amount: s.amount,
      currency: s.currency,
      recurring_interval: s.recurring_interval as 'month' | 'year',
      current_period_start: iso(s.current_period_start),
      current_period_end: iso(s.current_period_end),
      cancel_at_period_end: s.cancel_at_period_end,
      canceled_at: iso(s.canceled_at),
      started_at: iso(s.started_at),
      ends_at: iso(s.ends_at),
      product_id: s.product_id,
      discount_id: s.discount_id,
      meters: (usage.get(s.id) ?? []).map(({ meter: _meter, ...meter }) => meter),
    })),
    granted_benefits: grants.map((g) => ({
      id: g.id,
      created_at: iso(g.created_at),
      modified_at: iso(g.modified_at),
      granted_at: iso(g.granted_at!),
      benefit_id: g.benefit_id,
      benefit_type: g.benefit_type as StateParts['granted_benefits'][number]['benefit_type'],
      properties:
        g.benefit_type === 'custom'
          ? {
              ...((g.properties ?? {}) as object),
              note: (g.benefit_properties as { note?: string | null }).note ?? null,
            }
          : ((g.properties ?? {}) as Record<string, unknown>),
    })),
    active_meters: meters,
  };
  return { ...serializeCustomerState(row), ...parts };
}
