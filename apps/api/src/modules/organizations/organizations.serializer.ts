import { iso } from '../../platform/http/schemas.js';
import { customerEmailSettings } from '../../platform/mail/settings.js';
import type { OrganizationRow } from './organizations.repository.js';
import type { z } from 'zod/v4';
import { brandingSettings, type Organization } from './organizations.schemas.js';

export type OrganizationWire = z.input<typeof Organization>;

export function serializeOrganization(row: OrganizationRow): OrganizationWire {
  const features = (row.feature_settings ?? {}) as Record<string, boolean>;
  return {
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    name: row.name,
    slug: row.slug,
    avatar_url: row.avatar_url,
    email: row.email,
    website: row.website,
    socials: row.socials as OrganizationWire['socials'],
    details_submitted_at: iso(row.details_submitted_at),
    feature_settings: {
      issue_funding_enabled: features.issue_funding_enabled ?? false,
      usage_based_billing_enabled: features.usage_based_billing_enabled ?? false,
    },
    subscription_settings: row.subscription_settings as OrganizationWire['subscription_settings'],
    customer_email_settings: customerEmailSettings(row.customer_email_settings),
    branding_settings: brandingSettings(row.branding_settings),
  };
}
