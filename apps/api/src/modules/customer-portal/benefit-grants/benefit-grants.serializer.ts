import type { z } from 'zod/v4';
import type { Metadata } from '../../../platform/http/metadata.js';
import { iso } from '../../../platform/http/schemas.js';
import type { StoredProperties } from '../../benefits/benefits.properties.js';
import type { BenefitGrantRow, BenefitRow } from '../../benefits/benefits.repository.js';
import type { CustomerRow } from '../../customers/customers.repository.js';
import type { OrganizationRow } from '../../organizations/organizations.repository.js';
import { serializeOrganization } from '../../organizations/organizations.serializer.js';
import { serializePortalCustomer, type PortalOAuthAccount } from '../customer-portal.serializer.js';
import type { CustomerBenefitGrant } from './benefit-grants.schemas.js';

export type CustomerBenefitGrantWire = z.input<typeof CustomerBenefitGrant>;

export interface CustomerBenefitGrantView {
  grant: BenefitGrantRow;
  customer: CustomerRow;
  accounts: readonly PortalOAuthAccount[];
  benefit: BenefitRow;
  organization: OrganizationRow;
}

/** What of a benefit's stored properties its subscriber may see, per type. */
export function subscriberProperties(benefit: BenefitRow): unknown {
  switch (benefit.type) {
    case 'custom': {
      const p = benefit.properties as StoredProperties['custom'];
      return { note: p.note ?? null };
    }
    case 'discord': {
      const p = benefit.properties as StoredProperties['discord'];
      return { guild_id: p.guild_id };
    }
    case 'github_repository': {
      const p = benefit.properties as StoredProperties['github_repository'];
      return { repository_owner: p.repository_owner, repository_name: p.repository_name };
    }
    case 'downloadables': {
      const p = benefit.properties as StoredProperties['downloadables'];
      return { active_files: p.files.filter((id) => !p.archived?.[id]) };
    }
    case 'license_keys': {
      const p = benefit.properties as StoredProperties['license_keys'];
      return { prefix: p.prefix, expires: p.expires, activations: p.activations, limit_usage: p.limit_usage };
    }
    case 'meter_credit': {
      const p = benefit.properties as StoredProperties['meter_credit'];
      return { units: p.units, rollover: p.rollover, meter_id: p.meter_id };
    }
    default:
      throw new Error(`unknown benefit type ${benefit.type}`);
  }
}

export function serializeCustomerBenefitGrant(view: CustomerBenefitGrantView): CustomerBenefitGrantWire {
  const { grant, benefit } = view;
  return {
    created_at: iso(grant.created_at),
    modified_at: iso(grant.modified_at),
    id: grant.id,
    granted_at: iso(grant.granted_at),
    revoked_at: iso(grant.revoked_at),
    customer_id: grant.customer_id,
    benefit_id: grant.benefit_id,
    subscription_id: grant.subscription_id,
    order_id: grant.order_id,
    is_granted: grant.granted_at !== null,
    is_revoked: grant.revoked_at !== null,
    customer: serializePortalCustomer(view.customer, view.accounts),
    benefit: {
      id: benefit.id,
      created_at: iso(benefit.created_at),
      modified_at: iso(benefit.modified_at),
      type: benefit.type,
      description: benefit.description,
      selectable: benefit.selectable,
      deletable: benefit.deletable,
      organization_id: benefit.organization_id,
      metadata: (benefit.metadata ?? {}) as Metadata,
      organization: serializeOrganization(view.organization),
      properties: subscriberProperties(benefit),
    },
    properties: grant.properties ?? {},
    error: (grant.error ?? null) as { message: string; type: string; timestamp: string } | null,
  } as CustomerBenefitGrantWire;
}
