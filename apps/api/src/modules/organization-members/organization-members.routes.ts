import { z } from 'zod/v4';
import { PUBLIC } from '../../platform/auth/subject.js';
import { read, write } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { mapPage } from '../../platform/http/query.js';
import { IdParams } from '../../platform/http/schemas.js';
import { Organization } from '../organizations/organizations.schemas.js';
import { serializeOrganization } from '../organizations/organizations.serializer.js';
import {
  InviteParams,
  InviteTokenParams,
  ListResourceOrganizationInvite,
  ListResourceOrganizationMember,
  MemberParams,
  MembersListQuery,
  OrganizationInvitation,
  OrganizationInvite,
  OrganizationInviteCreate,
  OrganizationMember,
  OrganizationMemberUpdate,
} from './organization-members.schemas.js';
import { serializeInvite, serializeMember } from './organization-members.serializer.js';
import {
  acceptInvitation,
  changeMemberRole,
  getInvitation,
  inviteMember,
  leaveOrganization,
  listInvites,
  listMembers,
  removeMember,
  revokeInvite,
} from './organization-members.service.js';

// Teams of sellers are not in the reference's API at the spec's version: every call is an extension
// (docs/members.md).
const tags = ['organizations'];
const manage = { subjects: ['user' as const, 'organization' as const], scopes: write('organizations') };

export const organizationMemberRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/organizations/{id}/members',
    operationId: 'organizations:list_members',
    summary: 'List the members of an organization',
    tags,
    extension: true,
    auth: { subjects: ['user', 'organization'], scopes: read('organizations') },
    params: IdParams,
    query: MembersListQuery,
    errors: ['ResourceNotFound'],
    status: 200,
    response: ListResourceOrganizationMember,
    handler: async (ctx, { params, query }) => mapPage(await listMembers(ctx, params.id, query), serializeMember),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/organizations/{id}/members/{user_id}',
    operationId: 'organizations:remove_member',
    summary: 'Remove a member (never the last one; an owner only by an owner)',
    tags,
    extension: true,
    auth: manage,
    params: MemberParams,
    errors: ['ResourceNotFound', 'NotPermitted'],
    status: 204,
    response: z.undefined(),
    handler: async (ctx, { params }) => removeMember(ctx, params.id, params.user_id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/organizations/{id}/members/{user_id}',
    operationId: 'organizations:update_member',
    summary: "Change a member's role (by an owner; never demoting the last owner)",
    tags,
    extension: true,
    auth: manage,
    params: MemberParams,
    body: OrganizationMemberUpdate,
    errors: ['ResourceNotFound', 'NotPermitted'],
    status: 200,
    response: OrganizationMember,
    handler: async (ctx, { params, body }) =>
      serializeMember(await changeMemberRole(ctx, params.id, params.user_id, body.role)),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/organizations/{id}/leave',
    operationId: 'organizations:leave',
    summary: 'Leave an organization (never as its last member)',
    tags,
    extension: true,
    auth: { subjects: ['user'], scopes: write('organizations') },
    params: IdParams,
    errors: ['ResourceNotFound', 'NotPermitted'],
    status: 204,
    response: z.undefined(),
    handler: async (ctx, { params }) => leaveOrganization(ctx, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/organizations/{id}/invites',
    operationId: 'organizations:list_invites',
    summary: 'List the open invitations of an organization',
    tags,
    extension: true,
    auth: { subjects: ['user', 'organization'], scopes: read('organizations') },
    params: IdParams,
    query: MembersListQuery,
    errors: ['ResourceNotFound'],
    status: 200,
    response: ListResourceOrganizationInvite,
    handler: async (ctx, { params, query }) => {
      const now = ctx.clock.now();
      return mapPage(await listInvites(ctx, params.id, query), (row) => serializeInvite(row, now));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/organizations/{id}/invites',
    operationId: 'organizations:invite_member',
    summary: 'Invite someone by email (a single-use link, valid for 7 days; 20 an hour per organization)',
    tags,
    extension: true,
    auth: manage,
    params: IdParams,
    body: OrganizationInviteCreate,
    errors: ['ResourceNotFound', 'TooManyRequests'],
    status: 201,
    response: OrganizationInvite,
    handler: async (ctx, { params, body }) =>
      serializeInvite(await inviteMember(ctx, params.id, body), ctx.clock.now()),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/organizations/{id}/invites/{invite_id}',
    operationId: 'organizations:revoke_invite',
    summary: 'Withdraw an open invitation (its link stops working)',
    tags,
    extension: true,
    auth: manage,
    params: InviteParams,
    errors: ['ResourceNotFound'],
    status: 204,
    response: z.undefined(),
    handler: async (ctx, { params }) => revokeInvite(ctx, params.id, params.invite_id),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/organization-invites/{token}',
    operationId: 'organization_invites:get',
    summary: 'Read an invitation by the token of its link (the link is the credential)',
    tags,
    extension: true,
    auth: PUBLIC,
    params: InviteTokenParams,
    errors: ['ResourceNotFound', 'ResourceUnavailable'],
    status: 200,
    response: OrganizationInvitation,
    handler: async (ctx, { params }) => {
      const invite = await getInvitation(ctx, params.token);
      return {
        email: invite.email,
        expires_at: invite.expires_at.toISOString(),
        organization_name: invite.organization_name,
        organization_slug: invite.organization_slug,
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/organization-invites/{token}/accept',
    operationId: 'organization_invites:accept',
    summary: 'Accept an invitation as the signed-in user (the account must have the invited email)',
    tags,
    extension: true,
    auth: { subjects: ['user'], scopes: write('organizations') },
    params: InviteTokenParams,
    errors: ['ResourceNotFound', 'ResourceUnavailable', 'NotPermitted'],
    status: 200,
    response: Organization,
    handler: async (ctx, { params }) => serializeOrganization(await acceptInvitation(ctx, params.token)),
  }),
];
