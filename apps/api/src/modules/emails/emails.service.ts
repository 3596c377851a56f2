import type { Context } from '../../platform/context.js';
import { validationError } from '../../platform/http/errors.js';
import { pageOf, type Page } from '../../platform/http/query.js';
import { listEmails, type EmailRow } from '../../platform/mail/mail.repository.js';
import { findVisibleOrganization } from '../organizations/organizations.repository.js';
import type { EmailListParams } from './emails.schemas.js';

/** The organization's outbox, newest first (development only: the route does not exist in production). */
export async function listOrganizationEmails(ctx: Context, params: EmailListParams): Promise<Page<EmailRow>> {
  const id = ctx.subject.kind === 'organization' ? ctx.subject.organizationId : params.organization_id;
  if (!id) throw validationError(['query', 'organization_id'], 'organization_id is required.', 'missing');
  const organization = await findVisibleOrganization(ctx.db, ctx.subject, id);
  if (!organization) throw validationError(['query', 'organization_id'], 'Organization not found.');
  const { items, total } = await listEmails(ctx.db, {
    organizationId: organization.id,
    limit: params.limit,
    offset: (params.page - 1) * params.limit,
  });
  return pageOf(items, total, params);
}
