import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { generateToken, hashToken, TOKEN_PREFIX } from '../../platform/auth/tokens.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import {
  NotPermitted,
  ResourceNotFound,
  ResourceUnavailable,
  Unauthorized,
  validationError,
} from '../../platform/http/errors.js';
import { pageOf, type PageParams } from '../../platform/http/query.js';
import { queueEmail } from '../../platform/mail/outbox.js';
import { findUserById } from '../auth/auth.repository.js';
import {
  findVisibleOrganization,
  lockVisibleOrganization,
  type OrganizationRow,
} from '../organizations/organizations.repository.js';
import {
  deleteMembership,
  findInviteByTokenHash,
  findMemberByEmail,
  findOpenInvite,
  insertInvite,
  insertMembership,
  listAllMembers,
  listMembersPage,
  listOpenInvitesPage,
  markInviteAccepted,
  revokeInvite as revokeInviteRow,
  revokeOpenInvitesOf,
  setMemberRole,
  type InviteRow,
} from './organization-members.repository.js';

/**
 * Teams of sellers (docs/members.md). Membership is the permission: every read of a user subject
 * starts from `user_organizations` (platform/auth/tenancy.ts), so a removed member reaches nothing of
 * the organization from their next request on. Writes to the member list run under the
 * organization's row lock, so two removals cannot both pass the "not the last member" check.
 */

/** How long an invitation link works. */
export const INVITE_TTL_MS = 7 * 86_400_000;

async function visibleOrganization(ctx: Context, id: string, options: { lock: boolean }): Promise<OrganizationRow> {
  const organization = options.lock
    ? await lockVisibleOrganization(ctx.db, ctx.subject, id)
    : await findVisibleOrganization(ctx.db, ctx.subject, id);
  if (!organization) throw new ResourceNotFound();
  return organization;
}

export async function listMembers(ctx: Context, organizationId: string, params: PageParams) {
  const organization = await visibleOrganization(ctx, organizationId, { lock: false });
  const { rows, total } = await listMembersPage(ctx.db, organization.id, params);
  return pageOf(rows, total, params);
}

/**
 * Removes a member. The last member stays (an organization always has someone to act for it); only an
 * owner removes another owner. When the last owner goes, the longest-standing member becomes owner.
 */
export async function removeMember(ctx: Context, organizationId: string, userId: string): Promise<void> {
  const organization = await visibleOrganization(ctx, organizationId, { lock: true });
  const members = await listAllMembers(ctx.db, organization.id);
  const target = members.find((member) => member.user_id === userId);
  if (!target) throw new ResourceNotFound('Member not found.');
  const actorId = ctx.subject.kind === 'user' ? ctx.subject.userId : null;
  const actor = members.find((member) => member.user_id === actorId);
  if (members.length === 1) {
    throw new NotPermitted('The last member of an organization cannot leave or be removed.');
  }
  if (target.role === 'owner' && target.user_id !== actorId && actor?.role !== 'owner') {
    throw new NotPermitted('Only an owner can remove an owner.');
  }
  await deleteMembership(ctx.db, organization.id, target.user_id);
  const rest = members.filter((member) => member.user_id !== target.user_id);
  if (!rest.some((member) => member.role === 'owner')) {
    await setMemberRole(ctx.db, organization.id, rest[0]!.user_id, 'owner');
  }
}

export async function leaveOrganization(ctx: Context, organizationId: string): Promise<void> {
  if (ctx.subject.kind !== 'user') throw new Unauthorized();
  await removeMember(ctx, organizationId, ctx.subject.userId);
}

export async function listInvites(ctx: Context, organizationId: string, params: PageParams) {
  const organization = await visibleOrganization(ctx, organizationId, { lock: false });
  const { rows, total } = await listOpenInvitesPage(ctx.db, organization.id, params);
  return pageOf(rows, total, params);
}

/**
 * Invites an address: a single-use link, valid for INVITE_TTL_MS, emailed through the outbox in this
 * transaction. Inviting an address again replaces its open invitation (the old link stops working).
 */
export async function inviteMember(ctx: Context, organizationId: string, input: { email: string }): Promise<InviteRow> {
  const organization = await visibleOrganization(ctx, organizationId, { lock: true });
  const email = input.email.trim();
  if (await findMemberByEmail(ctx.db, organization.id, email)) {
    throw validationError(['body', 'email'], 'This person is already a member of the organization.');
  }
  const now = ctx.clock.now();
  await revokeOpenInvitesOf(ctx.db, organization.id, email, now);
  const token = generateToken(TOKEN_PREFIX.organizationInvite);
  const inviter = ctx.subject.kind === 'user' ? await findUserById(ctx.db, ctx.subject.userId) : undefined;
  let invite: InviteRow;
  try {
    invite = await insertInvite(ctx.db, {
      id: randomUUID(),
      created_at: now,
      modified_at: null,
      organization_id: organization.id,
      email,
      token_hash: hashToken(token, ctx.config.secret),
      invited_by_user_id: inviter?.id ?? null,
      expires_at: new Date(now.getTime() + INVITE_TTL_MS),
      accepted_at: null,
      accepted_by_user_id: null,
      revoked_at: null,
    });
  } catch (error) {
    // The organization's row lock serializes invitations; this only guards the unique index's promise.
    if (isUniqueViolation(error)) throw validationError(['body', 'email'], 'This address was just invited.');
    throw error;
  }
  await queueEmail(ctx, {
    organizationId: organization.id,
    to: email,
    template: 'organization_invite',
    data: {
      inviterEmail: inviter?.email ?? null,
      acceptUrl: `${ctx.config.baseUrl}/invite/${token}`,
      expiresAt: invite.expires_at,
    },
  });
  return invite;
}

export async function revokeInvite(ctx: Context, organizationId: string, inviteId: string): Promise<void> {
  const organization = await visibleOrganization(ctx, organizationId, { lock: true });
  const invite = await findOpenInvite(ctx.db, organization.id, inviteId);
  if (!invite) throw new ResourceNotFound('Invitation not found.');
  await revokeInviteRow(ctx.db, invite.id, ctx.clock.now());
}

/** A link that no longer works says why (410), so the page can tell the invitee what to do. */
function checkUsable(invite: InviteRow, now: Date): void {
  if (invite.accepted_at) throw new ResourceUnavailable('This invitation was already used.');
  if (invite.revoked_at) throw new ResourceUnavailable('This invitation was withdrawn.');
  if (invite.expires_at.getTime() <= now.getTime()) {
    throw new ResourceUnavailable('This invitation has expired: ask a member of the organization for a new one.');
  }
}

/** What the accept page shows: read with the link alone (the link is the credential). */
export async function getInvitation(ctx: Context, token: string) {
  const invite = await findInviteByTokenHash(ctx.db, hashToken(token, ctx.config.secret), { lock: false });
  if (!invite) throw new ResourceNotFound('Invitation not found.');
  checkUsable(invite, ctx.clock.now());
  return invite;
}

/**
 * The signed-in user joins the organization. The invitation is for one address: the account must have
 * that email (a forwarded link does not let someone else in). Locked, so a link works exactly once.
 */
export async function acceptInvitation(ctx: Context, token: string): Promise<OrganizationRow> {
  if (ctx.subject.kind !== 'user') throw new Unauthorized();
  const invite = await findInviteByTokenHash(ctx.db, hashToken(token, ctx.config.secret), { lock: true });
  if (!invite) throw new ResourceNotFound('Invitation not found.');
  const now = ctx.clock.now();
  checkUsable(invite, now);
  const user = await findUserById(ctx.db, ctx.subject.userId);
  if (!user) throw new Unauthorized();
  if (user.email.toLowerCase() !== invite.email.toLowerCase()) {
    throw new NotPermitted(`This invitation was sent to ${invite.email}: sign in with that address to accept it.`);
  }
  await insertMembership(ctx.db, {
    organization_id: invite.organization_id,
    user_id: user.id,
    created_at: now,
    role: 'member',
  });
  await markInviteAccepted(ctx.db, invite.id, user.id, now);
  return visibleOrganization(ctx, invite.organization_id, { lock: false });
}
