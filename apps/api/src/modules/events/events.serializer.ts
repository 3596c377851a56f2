import type { z } from 'zod/v4';
import { iso } from '../../platform/http/schemas.js';
import type { CustomerRow } from '../customers/customers.repository.js';
import { serializeCustomer } from '../customers/customers.serializer.js';
import type { EventNameRow, EventRow } from './events.repository.js';
import type { Event, EventName } from './events.schemas.js';

type EventWire = z.input<typeof Event>;

/** The customer an event reaches: by its id, else by the external id within the event's organization. */
export function customerOfEvent(event: EventRow, customers: CustomerRow[]): CustomerRow | null {
  return (
    customers.find((c) => event.customer_id !== null && c.id === event.customer_id) ??
    customers.find(
      (c) =>
        event.external_customer_id !== null &&
        c.organization_id === event.organization_id &&
        c.external_id === event.external_customer_id,
    ) ??
    null
  );
}

/** `label`: the event type's (the name until the seller names it otherwise: PATCH /v1/event-types/{id}). */
export function serializeEvent(row: EventRow, customer: CustomerRow | null, label: string = row.name): EventWire {
  return {
    id: row.id,
    timestamp: iso(row.timestamp),
    organization_id: row.organization_id,
    customer_id: row.customer_id,
    customer: customer ? serializeCustomer(customer) : null,
    external_customer_id: row.external_customer_id,
    name: row.name,
    source: row.source,
    metadata: (row.metadata ?? {}) as Record<string, unknown>,
    parent_id: row.parent_id,
    child_count: Number(row.child_count),
    label,
  };
}

export function serializeEventName(row: EventNameRow): z.input<typeof EventName> {
  return {
    name: row.name,
    source: row.source,
    occurrences: Number(row.occurrences),
    first_seen: iso(row.first_seen),
    last_seen: iso(row.last_seen),
  };
}
