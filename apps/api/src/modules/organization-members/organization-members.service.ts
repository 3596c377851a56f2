import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { generateToken, hashToken, TOKEN_PREFIX } from '../../platform/auth/tokens.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import {
  NotPermitted,
  ResourceNotFound,
  ResourceUnavailable,
  TooManyRequests,
  Unauthorized,
  validationError,
} from '../../platform/http/errors.js';
import { pageOf, type PageParams } from '../../platform/http/query.js';
import { recordWebhookEvent } from '../../platform/events.js';
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
  recentInviteTimes,
  revokeInvite as revokeInviteRow,
  revokeOpenInvitesOf,
  setMemberRole,
  type InviteRow,
  type MemberRole,
  type MemberRow,
} from './organization-members.repository.js';
import { serializeMemberRemoved } from './organization-members.serializer.js';

/**
 * Teams of sellers (docs/members.md). Membership is the permission: every read of a user subject
 * starts from `user_organizations` (platform/auth/tenancy.ts), so a removed member reaches nothing of
 * the organization from their next request on. Writes to the member list run under the
 * organization's row lock, so two removals cannot both pass the "not the last member" check.
 */

/** How long an invitation link works. */
export const INVITE_TTL_MS = 7 * 86_400_000;

/**
 * Invitations sent per sliding hour, beyond the API-wide limit: each one emails an address the
 * organization chose, so a leaked token or a compromised member cannot turn the mail layer into a
 * spam relay. Counted from the invitations themselves, so only sent ones count.
 */
export const INVITE_LIMITS = { windowMs: 3_600_000, perOrganization: 20, perInviter: 10 } as const;

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
/**
 * The organization locked (one change of its members at a time), its members, the member `userId`
 * (404 when not one) and the acting user's own membership, if any.
 */
async function lockedMembers(ctx: Context, organizationId: string, userId: string) {
  const organization = await visibleOrganization(ctx, organizationId, { lock: true });
  const members = await listAllMembers(ctx.db, organization.id);
  const target = members.find((member) => member.user_id === userId);
  if (!target) throw new ResourceNotFound('Member not found.');
  const actorId = ctx.subject.kind === 'user' ? ctx.subject.userId : null;
  const actor = members.find((member) => member.user_id === actorId);
  return { organization, members, target, actorId, actor };
}

export async function removeMember(
  ctx: Context,
  organizationId: string,
  userId: string,
  reason: 'removed' | 'left' = 'removed',
): Promise<void> {
  const { organization, members, target, actorId, actor } = await lockedMembers(ctx, organizationId, userId);
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
  // In the removal's transaction: the event exists if and only if the removal commits.
  await recordWebhookEvent(
    ctx,
    organization.id,
    'organization.member_removed',
    serializeMemberRemoved(target, { reason, removedByUserId: actorId, removedAt: ctx.clock.now() }),
  );
}

/**
 * Changes a member's role. Only an owner changes roles (a member or an organization token gets 403,
 * as for removing an owner), and the last owner cannot be demoted: an organization always has one.
 * An owner may step down while another owner remains.
 */
export async function changeMemberRole(
  ctx: Context,
  organizationId: string,
  userId: string,
  role: MemberRole,
): Promise<MemberRow> {
  const { organization, members, target, actor } = await lockedMembers(ctx, organizationId, userId);
  if (actor?.role !== 'owner') throw new NotPermitted('Only an owner can change the role of a member.');
  if (target.role === role) return target;
  if (target.role === 'owner' && !members.some((m) => m.role === 'owner' && m.user_id !== target.user_id)) {
    throw new NotPermitted('The last owner of an organization cannot be demoted: make another member owner first.');
  }
  await setMemberRole(ctx.db, organization.id, target.user_id, role);
  return { ...target, role };
}

export async function leaveOrganization(ctx: Context, organizationId: string): Promise<void> {
  if (ctx.subject.kind !== 'user') throw new Unauthorized();
  await removeMember(ctx, organizationId, ctx.subject.userId, 'left');
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
  const inviter = ctx.subject.kind === 'user' ? await findUserById(ctx.db, ctx.subject.userId) : undefined;
  await checkInviteLimits(ctx, organization.id, inviter?.id ?? null, now);
  await revokeOpenInvitesOf(ctx.db, organization.id, email, now);
  const token = generateToken(TOKEN_PREFIX.organizationInvite);
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

/**
 * 429 with Retry-After when the organization, or this inviter, sent INVITE_LIMITS' number of invitations
 * in the last hour (the organization's row lock is held, so two requests cannot both pass). Retry-After
 * is when the oldest invitation of the window leaves it. Organization tokens count for the organization.
 */
async function checkInviteLimits(ctx: Context, organizationId: string, inviterId: string | null, now: Date) {
  const since = new Date(now.getTime() - INVITE_LIMITS.windowMs);
  const checks: { limit: number; inviterId?: string; who: string }[] = [
    { limit: INVITE_LIMITS.perOrganization, who: 'this organization' },
  ];
  if (inviterId) checks.push({ limit: INVITE_LIMITS.perInviter, inviterId, who: 'you' });
  for (const check of checks) {
    const recent = await recentInviteTimes(ctx.db, organizationId, since, check.limit, check.inviterId);
    if (recent.length < check.limit) continue;
    // The window holds `limit` invitations until the oldest of the latest `limit` leaves it.
    const retryAfterMs = recent[recent.length - 1]!.getTime() + INVITE_LIMITS.windowMs - now.getTime();
    throw new TooManyRequests(
      retryAfterMs / 1000,
      `Too many invitations: ${check.who} sent ${check.limit} in the last hour. ` +
        `Try again in ${Math.max(1, Math.ceil(retryAfterMs / 60_000))} minutes.`,
    );
  }
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
