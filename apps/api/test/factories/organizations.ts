import { randomBytes } from 'node:crypto';
import { GRANTABLE_SCOPES } from '../../src/platform/auth/scopes.js';
import { createOrganization } from '../../src/modules/organizations/organizations.service.js';
import { issueOrganizationAccessToken } from '../../src/modules/organization-access-tokens/organization-access-tokens.service.js';
import type { OrganizationRow } from '../../src/modules/organizations/organizations.repository.js';
import type { TestServer } from '../harness.js';

export function uniqueSlug(prefix = 'org'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

export interface OrganizationFixture {
  organization: OrganizationRow;
  /** An access token with every grantable scope. */
  token: string;
}

export async function organizationFactory(
  server: TestServer,
  overrides: { name?: string; slug?: string; scopes?: string[] } = {},
): Promise<OrganizationFixture> {
  const ctx = server.context();
  const organization = await createOrganization(ctx, {
    name: overrides.name ?? 'Test Organization',
    slug: overrides.slug ?? uniqueSlug(),
  });
  const { token } = await issueOrganizationAccessToken(ctx.db, {
    organizationId: organization.id,
    scopes: overrides.scopes ?? GRANTABLE_SCOPES,
    comment: 'test',
    expiresAt: null,
    now: ctx.clock.now(),
    secret: ctx.config.secret,
  });
  return { organization, token };
}

/** A token of an existing organization with exactly these scopes (403 tests). */
export async function tokenFactory(
  server: TestServer,
  organizationId: string,
  scopes: string[],
  expiresAt: Date | null = null,
): Promise<string> {
  const ctx = server.context();
  const { token } = await issueOrganizationAccessToken(ctx.db, {
    organizationId,
    scopes,
    comment: 'test',
    expiresAt,
    now: ctx.clock.now(),
    secret: ctx.config.secret,
  });
  return token;
}
