import type { z } from 'zod/v4';
import { iso } from '../../platform/http/schemas.js';
import type { Metadata } from '../../platform/http/metadata.js';
import { serializeCustomer } from '../customers/customers.serializer.js';
import type { Benefit, BenefitGrant } from './benefits.schemas.js';
import type { BenefitGrantRow, BenefitRow, GrantCustomerRow } from './benefits.repository.js';

export type BenefitWire = z.input<typeof Benefit>;
export type BenefitGrantWire = z.input<typeof BenefitGrant>;

/**
 * Row → wire Benefit. Pure: the properties are stored in their read shape (see the service), so the
 * API response and the webhook payload of one change are identical.
 */
export function serializeBenefit(row: BenefitRow): BenefitWire {
  return {
    id: row.id,
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    type: row.type,
    description: row.description,
    selectable: row.selectable,
    deletable: row.deletable,
    is_deleted: row.deleted_at !== null,
    organization_id: row.organization_id,
    metadata: (row.metadata ?? {}) as Metadata,
    visibility: 'public',
    // A revoked Discord grant loses its role; the member is never removed from the server.
    properties: row.type === 'discord' ? { ...(row.properties as object), kick_member: false } : row.properties,
    visibility_configurable: false,
  } as BenefitWire;
}

/** A grant with its customer and its benefit (the seller's lists and the `benefit_grant.*` webhooks). */
export function serializeBenefitGrant(
  row: BenefitGrantRow,
  customer: GrantCustomerRow,
  benefit: BenefitRow,
): BenefitGrantWire {
  return {
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    granted_at: iso(row.granted_at),
    is_granted: row.granted_at !== null,
    revoked_at: iso(row.revoked_at),
    is_revoked: row.revoked_at !== null,
    subscription_id: row.subscription_id,
    order_id: row.order_id,
    customer_id: row.customer_id,
    benefit_id: row.benefit_id,
    error: (row.error ?? null) as BenefitGrantWire['error'],
    customer: serializeCustomer(customer),
    benefit: serializeBenefit(benefit),
    properties: (row.properties ?? {}) as BenefitGrantWire['properties'],
  };
}
