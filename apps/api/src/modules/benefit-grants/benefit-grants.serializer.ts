import type { BenefitGrantRow, BenefitRow, GrantCustomerRow } from '../benefits/benefits.repository.js';
import { serializeBenefitGrant, type BenefitGrantWire } from '../benefits/benefits.serializer.js';

/** `BenefitGrantWebhook`: the grant as the API serializes it (its benefit included) and its previous properties. */
export function serializeGrantWebhook(
  grant: BenefitGrantRow,
  customer: GrantCustomerRow,
  benefit: BenefitRow,
  previous: unknown,
) {
  return {
    ...serializeBenefitGrant(grant, customer, benefit),
    previous_properties: (previous ?? null) as BenefitGrantWire['properties'] | null,
  };
}
