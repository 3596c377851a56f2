import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { customerEmailSettings } from '../../platform/mail/settings.js';
import { IssueCollector, ResourceNotFound, validationError } from '../../platform/http/errors.js';
import { pageOf } from '../../platform/http/query.js';
import { recordWebhookEvent } from '../../platform/events.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import {
  addOwner,
  findOrganizationBySlug,
  findVisibleOrganization,
  insertOrganization,
  listVisibleOrganizations,
  lockVisibleOrganization,
  updateOrganization as updateOrganizationRow,
  updateVisibleOrganization,
  type OrganizationChanges,
  type OrganizationRow,
} from './organizations.repository.js';
import type {
  OrganizationCreateInput,
  OrganizationListParams,
  OrganizationUpdateInput,
} from './organizations.schemas.js';
import { serializeOrganization } from './organizations.serializer.js';
import { brandingSettings } from './organizations.schemas.js';

export const DEFAULT_SUBSCRIPTION_SETTINGS = {
  allow_multiple_subscriptions: false,
  allow_customer_updates: true,
  proration_behavior: 'prorate',
} as const;

/** Slugs that would collide with the application's own routes. */
export const RESERVED_SLUGS = new Set([
  'benefits',
  'donations',
  'issue-funding',
  'newsletters',
  'products',
  'careers',
  'legal',
  'docs',
  'login',
  'signup',
  'oauth2',
  'checkout',
  'embed',
  'maintainer',
  'dashboard',
  'feed',
  'for-you',
  'posts',
  'purchases',
  'funding',
  'rewards',
  'settings',
  'backoffice',
  'finance',
  '.well-known',
  'portal',
  'api',
  'v1',
  'admin',
]);

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Allowed hosts per social platform (`other` takes any URL). */
const SOCIAL_HOSTS: Record<string, string[]> = {
  x: ['twitter.com', 'x.com'],
  github: ['github.com'],
  facebook: ['facebook.com', 'fb.com'],
  instagram: ['instagram.com'],
  youtube: ['youtube.com', 'youtu.be'],
  tiktok: ['tiktok.com'],
  linkedin: ['linkedin.com'],
};

function checkSocials(issues: IssueCollector, socials: { platform: string; url: string }[] | null | undefined): void {
  socials?.forEach((social, index) => {
    const hosts = SOCIAL_HOSTS[social.platform];
    if (!hosts) return;
    const host = new URL(social.url).hostname.toLowerCase();
    if (!hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`))) {
      issues.add(['body', 'socials', index, 'url'], `The URL must be on ${hosts.join(' or ')}.`);
    }
  });
}

export async function createOrganization(ctx: Context, input: OrganizationCreateInput): Promise<OrganizationRow> {
  const issues = new IssueCollector();
  const slug = input.slug.toLowerCase();
  if (!SLUG_PATTERN.test(slug)) {
    issues.add(['body', 'slug'], 'The slug can only contain ASCII letters, numbers and hyphens.');
  } else if (RESERVED_SLUGS.has(slug)) {
    issues.add(['body', 'slug'], 'This slug is reserved.');
  } else if (await findOrganizationBySlug(ctx.db, slug)) {
    issues.add(['body', 'slug'], 'An organization with this slug already exists.');
  }
  checkSocials(issues, input.socials);
  issues.throwIfAny();

  const now = ctx.clock.now();
  let row: OrganizationRow;
  try {
    row = await insertOrganization(ctx.db, {
      id: randomUUID(),
      created_at: now,
      modified_at: null,
      deleted_at: null,
      name: input.name,
      slug,
      avatar_url: input.avatar_url ?? null,
      email: input.email ?? null,
      website: input.website ?? null,
      socials: input.socials ?? [],
      details: input.details ?? null,
      details_submitted_at: input.details ? now : null,
      feature_settings: input.feature_settings ?? {},
      subscription_settings: input.subscription_settings ?? DEFAULT_SUBSCRIPTION_SETTINGS,
      customer_invoice_prefix: slug.toUpperCase().replace(/-/g, ''),
    });
  } catch (error) {
    // Two creations racing for one slug: the unique index decides, the loser gets the same 422.
    if (isUniqueViolation(error))
      throw validationError(['body', 'slug'], 'An organization with this slug already exists.');
    throw error;
  }
  if (ctx.subject.kind === 'user') await addOwner(ctx.db, row.id, ctx.subject.userId, now);
  return row;
}

export async function getOrganization(ctx: Context, id: string): Promise<OrganizationRow> {
  const row = await findVisibleOrganization(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return row;
}

export async function listOrganizations(ctx: Context, params: OrganizationListParams) {
  const { rows, total } = await listVisibleOrganizations(ctx.db, ctx.subject, params);
  return pageOf(rows, total, params);
}

/**
 * The slug never changes (URLs and invoice numbers depend on it); `details` are stored the first time
 * only; `feature_settings`, `customer_email_settings` and `branding_settings` merge; `subscription_settings` replace.
 */
export async function updateOrganization(
  ctx: Context,
  id: string,
  input: OrganizationUpdateInput,
): Promise<OrganizationRow> {
  const issues = new IssueCollector();
  checkSocials(issues, input.socials);
  const now = ctx.clock.now();
  const changes: OrganizationChanges = { modified_at: now };
  if (input.name != null) changes.name = input.name;
  if (input.avatar_url !== undefined) changes.avatar_url = input.avatar_url;
  if (input.email !== undefined) changes.email = input.email;
  if (input.website !== undefined) changes.website = input.website;
  if (input.socials !== undefined) changes.socials = input.socials ?? [];
  if (input.subscription_settings) changes.subscription_settings = input.subscription_settings;

  // Plain fields replace what is stored: one UPDATE, which takes the row's lock only for the rest of the
  // transaction (the event's writes), instead of a locking read first.
  const merges = input.details || input.feature_settings || input.customer_email_settings || input.branding_settings;
  if (!merges) {
    if (issues.issues.length > 0) {
      // Visibility first: a stranger's organization is a 404 whatever the body.
      if (!(await findVisibleOrganization(ctx.db, ctx.subject, id))) throw new ResourceNotFound();
      issues.throwIfAny();
    }
    const updated = await updateVisibleOrganization(ctx.db, ctx.subject, id, changes);
    if (!updated) throw new ResourceNotFound();
    await recordWebhookEvent(ctx, updated.id, 'organization.updated', serializeOrganization(updated));
    return updated;
  }

  // The settings are merged with what is stored: read under the row's lock.
  const current = await lockVisibleOrganization(ctx.db, ctx.subject, id);
  if (!current) throw new ResourceNotFound();
  issues.throwIfAny();
  if (input.details && current.details_submitted_at === null) {
    changes.details = input.details;
    changes.details_submitted_at = now;
  }
  if (input.feature_settings) {
    changes.feature_settings = { ...(current.feature_settings as object), ...input.feature_settings };
  }
  if (input.customer_email_settings) {
    changes.customer_email_settings = {
      ...customerEmailSettings(current.customer_email_settings),
      ...Object.fromEntries(Object.entries(input.customer_email_settings).filter(([, on]) => on !== undefined)),
    };
  }

  if (input.branding_settings) {
    changes.branding_settings = {
      ...brandingSettings(current.branding_settings),
      ...Object.fromEntries(Object.entries(input.branding_settings).filter(([, value]) => value !== undefined)),
    };
  }

  const updated = await updateOrganizationRow(ctx.db, id, changes);
  await recordWebhookEvent(ctx, updated.id, 'organization.updated', serializeOrganization(updated));
  return updated;
}

/**
 * The organization a create call acts for (reference: `organization/resolver.py`). An organization
 * token acts for its own organization and may not name one; a user must name one they belong to.
 * Problems are 422s at `["body","organization_id"]`.
 */
export async function resolveOrganizationForWrite(
  ctx: Context,
  organizationId: string | null | undefined,
): Promise<OrganizationRow> {
  const loc = ['body', 'organization_id'];
  if (ctx.subject.kind === 'organization') {
    if (organizationId != null) {
      throw validationError(
        loc,
        'Setting organization_id is disallowed when using an organization token.',
        'organization_token',
      );
    }
    const own = await findVisibleOrganization(ctx.db, ctx.subject, ctx.subject.organizationId);
    if (!own) throw new ResourceNotFound('Organization not found');
    return own;
  }
  if (organizationId == null) throw validationError(loc, 'organization_id is required.', 'missing');
  const organization = await findVisibleOrganization(ctx.db, ctx.subject, organizationId);
  if (!organization) throw validationError(loc, 'Organization not found.');
  return organization;
}
