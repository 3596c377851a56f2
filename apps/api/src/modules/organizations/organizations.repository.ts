import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { OrganizationsTable } from '../../db/tables/foundation.js';
import type { Executor } from '../../platform/db/database.js';
import { paginate } from '../../platform/db/paginate.js';
import { prepared } from '../../platform/db/prepared.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Subject } from '../../platform/auth/subject.js';
import type { OrganizationListParams } from './organizations.schemas.js';

export type OrganizationRow = Selectable<OrganizationsTable>;

function visible(db: Executor, subject: Subject) {
  return db
    .selectFrom('organizations')
    .selectAll('organizations')
    .where('organizations.deleted_at', 'is', null)
    .where(organizationVisibleTo(subject, 'organizations.id'));
}

// An organization token reading its organization (every GET of it): compiled once (platform/db/prepared.ts).
const organizationOfToken = prepared(2, (db, tokenOrganizationId: string, id: string) =>
  visible(db, { kind: 'organization', organizationId: tokenOrganizationId, tokenId: '', scopes: new Set() }).where(
    'organizations.id',
    '=',
    id,
  ),
);

export async function findVisibleOrganization(
  db: Executor,
  subject: Subject,
  id: string,
): Promise<OrganizationRow | undefined> {
  if (subject.kind === 'organization') {
    // Read with the token on the routes that ask for it (route.ts readsTokenOrganization).
    if (subject.organization?.id === id) return subject.organization;
    return (await organizationOfToken(db, subject.organizationId, id))[0];
  }
  return visible(db, subject).where('organizations.id', '=', id).executeTakeFirst();
}

/** Locks the row for the rest of the transaction (updates read-modify-write the JSON settings). */
export async function lockVisibleOrganization(
  db: Executor,
  subject: Subject,
  id: string,
): Promise<OrganizationRow | undefined> {
  return visible(db, subject).where('organizations.id', '=', id).forUpdate().executeTakeFirst();
}

export async function listVisibleOrganizations(db: Executor, subject: Subject, params: OrganizationListParams) {
  let query = visible(db, subject);
  if (params.slug !== undefined) query = query.where(sql`lower(organizations.slug)`, '=', params.slug.toLowerCase());
  for (const sort of params.sorting) {
    query = query.orderBy(`organizations.${sort.key}`, sort.descending ? 'desc' : 'asc');
  }
  query = query.orderBy('organizations.id');
  return paginate(db, query, params);
}

export async function findOrganizationBySlug(db: Executor, slug: string): Promise<OrganizationRow | undefined> {
  return db
    .selectFrom('organizations')
    .selectAll()
    .where(sql`lower(slug)`, '=', slug.toLowerCase())
    .executeTakeFirst();
}

export async function insertOrganization(
  db: Executor,
  row: Omit<
    OrganizationRow,
    | 'socials'
    | 'details'
    | 'feature_settings'
    | 'subscription_settings'
    | 'customer_email_settings'
    | 'tax_settings'
    | 'branding_settings'
    | 'catalogue_version'
  > & {
    socials: unknown;
    details: unknown;
    feature_settings: unknown;
    subscription_settings: unknown;
  },
): Promise<OrganizationRow> {
  return db
    .insertInto('organizations')
    .values({
      ...row,
      socials: JSON.stringify(row.socials),
      details: row.details === null ? null : JSON.stringify(row.details),
      feature_settings: JSON.stringify(row.feature_settings),
      subscription_settings: JSON.stringify(row.subscription_settings),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface OrganizationChanges {
  modified_at: Date;
  name?: string;
  avatar_url?: string | null;
  email?: string | null;
  website?: string | null;
  socials?: unknown;
  details?: unknown;
  details_submitted_at?: Date;
  feature_settings?: unknown;
  subscription_settings?: unknown;
  customer_email_settings?: unknown;
  branding_settings?: unknown;
}

function columnsOf(changes: OrganizationChanges) {
  const {
    socials,
    details,
    feature_settings,
    subscription_settings,
    customer_email_settings,
    branding_settings,
    ...plain
  } = changes;
  return {
    ...plain,
    ...(socials !== undefined ? { socials: JSON.stringify(socials) } : {}),
    ...(details !== undefined ? { details: JSON.stringify(details) } : {}),
    ...(feature_settings !== undefined ? { feature_settings: JSON.stringify(feature_settings) } : {}),
    ...(subscription_settings !== undefined ? { subscription_settings: JSON.stringify(subscription_settings) } : {}),
    ...(customer_email_settings !== undefined
      ? { customer_email_settings: JSON.stringify(customer_email_settings) }
      : {}),
    ...(branding_settings !== undefined ? { branding_settings: JSON.stringify(branding_settings) } : {}),
  };
}

export async function updateOrganization(
  db: Executor,
  id: string,
  changes: OrganizationChanges,
): Promise<OrganizationRow> {
  return db
    .updateTable('organizations')
    .set(columnsOf(changes))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Changes that need no current value, written in one statement: undefined when the subject cannot see it. */
export async function updateVisibleOrganization(
  db: Executor,
  subject: Subject,
  id: string,
  changes: OrganizationChanges,
): Promise<OrganizationRow | undefined> {
  return db
    .updateTable('organizations')
    .set(columnsOf(changes))
    .where('organizations.id', '=', id)
    .where('organizations.deleted_at', 'is', null)
    .where(organizationVisibleTo(subject, 'organizations.id'))
    .returningAll()
    .executeTakeFirst();
}

/** The creator of an organization: its first owner (others join by invitation, organization-members/). */
export async function addOwner(db: Executor, organizationId: string, userId: string, at: Date): Promise<void> {
  await db
    .insertInto('user_organizations')
    .values({ organization_id: organizationId, user_id: userId, created_at: at, role: 'owner' })
    .onConflict((oc) => oc.doNothing())
    .execute();
}
