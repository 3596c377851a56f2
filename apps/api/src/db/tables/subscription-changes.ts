import type { Json, Timestamp } from './types.js';

export type SubscriptionChangeKind =
  | 'created'
  | 'trial_started'
  | 'trial_converted'
  | 'product_changed'
  | 'discount_changed'
  | 'canceled'
  | 'uncanceled'
  | 'revoked'
  | 'ended'
  | 'past_due'
  | 'recovered';

/** Migration 0041: a subscription's history, one row per change, written with the change. */
export interface SubscriptionChangesTable {
  id: string;
  created_at: Timestamp;
  organization_id: string;
  subscription_id: string;
  customer_id: string;
  kind: SubscriptionChangeKind;
  details: Json;
}

export interface SubscriptionChangesTables {
  subscription_changes: SubscriptionChangesTable;
}
