import { z } from 'zod/v4';
import { paginationQuery } from '../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../platform/http/schemas.js';

export const OrganizationMemberRole = z
  .enum(['owner', 'member'])
  .describe(
    '`owner`: created the organization or was made owner (owners alone change roles and remove an owner); ' +
      '`member`: joined by invitation.',
  )
  .meta({ id: 'OrganizationMemberRole' });

export const OrganizationMember = z
  .object({
    user_id: z.uuid(),
    email: z.string(),
    role: OrganizationMemberRole,
    created_at: DateTime().describe('When they joined the organization.'),
  })
  .meta({ id: 'OrganizationMember' });

export const ListResourceOrganizationMember = ListResource(OrganizationMember, 'ListResourceOrganizationMember');

export const OrganizationInviteStatus = z.enum(['pending', 'expired']).meta({ id: 'OrganizationInviteStatus' });

export const OrganizationInvite = z
  .object({
    id: z.uuid(),
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    organization_id: z.uuid(),
    email: z.string(),
    invited_by_user_id: z.uuid().nullable(),
    expires_at: DateTime(),
    status: OrganizationInviteStatus,
  })
  .meta({ id: 'OrganizationInvite' });

export const ListResourceOrganizationInvite = ListResource(OrganizationInvite, 'ListResourceOrganizationInvite');

export const OrganizationMemberUpdate = z
  .object({ role: OrganizationMemberRole })
  .meta({ id: 'OrganizationMemberUpdate' });

export const OrganizationInviteCreate = z
  .object({ email: z.email({ message: 'Input should be a valid email address' }).max(320) })
  .meta({ id: 'OrganizationInviteCreate' });

/** What the accept-invitation page shows to whoever holds the link. */
export const OrganizationInvitation = z
  .object({
    email: z.string(),
    expires_at: DateTime(),
    organization_name: z.string(),
    organization_slug: z.string(),
  })
  .meta({ id: 'OrganizationInvitation' });

export const MembersListQuery = z.object({ ...paginationQuery });
export type MembersListParams = z.output<typeof MembersListQuery>;

export const MemberParams = z.object({ id: Id(), user_id: Id() });
export const InviteParams = z.object({ id: Id(), invite_id: Id() });
export const InviteTokenParams = z.object({ token: z.string().min(1).max(200) });
