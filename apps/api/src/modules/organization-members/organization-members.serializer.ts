import type { z } from 'zod/v4';
import { iso } from '../../platform/http/schemas.js';
import type { InviteRow, MemberRow } from './organization-members.repository.js';
import type { OrganizationInvite, OrganizationMember } from './organization-members.schemas.js';

export function serializeMember(row: MemberRow): z.input<typeof OrganizationMember> {
  return { user_id: row.user_id, email: row.email, role: row.role, created_at: iso(row.created_at) };
}

/** The data of `organization.member_removed` (an extension event; docs/members.md). */
export function serializeMemberRemoved(
  row: MemberRow,
  removal: { reason: 'removed' | 'left'; removedByUserId: string | null; removedAt: Date },
) {
  return {
    organization_id: row.organization_id,
    user_id: row.user_id,
    email: row.email,
    role: row.role,
    joined_at: iso(row.created_at),
    reason: removal.reason,
    removed_by_user_id: removal.removedByUserId,
    removed_at: iso(removal.removedAt),
  };
}

/** `now` decides whether an open invitation still works (the page shows expired ones as such). */
export function serializeInvite(row: InviteRow, now: Date): z.input<typeof OrganizationInvite> {
  return {
    id: row.id,
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    organization_id: row.organization_id,
    email: row.email,
    invited_by_user_id: row.invited_by_user_id,
    expires_at: iso(row.expires_at),
    status: row.expires_at.getTime() > now.getTime() ? 'pending' : 'expired',
  };
}
