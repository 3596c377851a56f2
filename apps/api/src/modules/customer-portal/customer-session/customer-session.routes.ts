import { z } from 'zod/v4';
import { PUBLIC } from '../../../platform/auth/subject.js';
import { defineRoute } from '../../../platform/http/route.js';
import {
  CustomerSessionCodeAuthenticateRequest,
  CustomerSessionCodeAuthenticateResponse,
  CustomerSessionCodeRequest,
  CustomerSessionCodeRequested,
  CustomerSessionKeep,
  CustomerSessionRestore,
  CustomerSessionRestored,
} from './customer-session.schemas.js';
import { forgetSession, keepSession, restoreSession } from './customer-session.keeper.js';
import { authenticateSessionCode, requestSessionCode } from './customer-session.service.js';

/** Email-code sign-in (private in the reference: the portal's own sign-in page calls it). */
export const portalCustomerSessionRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v1/customer-portal/customer-session/request',
    operationId: 'customer_portal:customer_session:request',
    summary: 'Send a customer portal sign-in code by email',
    tags: ['customer_portal'],
    auth: PUBLIC,
    internal: true,
    body: CustomerSessionCodeRequest,
    status: 202,
    response: CustomerSessionCodeRequested,
    handler: (ctx, { body }) => requestSessionCode(ctx, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/customer-portal/customer-session/authenticate',
    operationId: 'customer_portal:customer_session:authenticate',
    summary: 'Exchange a customer portal sign-in code for a customer session',
    tags: ['customer_portal'],
    auth: PUBLIC,
    internal: true,
    body: CustomerSessionCodeAuthenticateRequest,
    // Wrong guesses are counted outside the code's transaction (customer-session.service.ts).
    transaction: false,
    errors: ['Unauthorized', 'TooManyRequests'],
    status: 200,
    response: CustomerSessionCodeAuthenticateResponse,
    handler: (ctx, { body }) => authenticateSessionCode(ctx, body),
  }),
  // The session kept across tabs (customer-session.keeper.ts): the cookie restores the token, never authenticates.
  defineRoute({
    method: 'POST',
    path: '/v1/customer-portal/customer-session/keep',
    operationId: 'customer_portal:customer_session:keep',
    summary: "Keep the portal's customer session for new tabs (an HttpOnly cookie of these routes only)",
    tags: ['customer_portal'],
    auth: PUBLIC,
    internal: true,
    body: CustomerSessionKeep,
    errors: ['Unauthorized'],
    status: 204,
    response: z.undefined(),
    handler: (ctx, { body }, reply) => keepSession(ctx, body.token, reply),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/customer-portal/customer-session/restore',
    operationId: 'customer_portal:customer_session:restore',
    summary: "The kept customer session token of the organization's portal",
    tags: ['customer_portal'],
    auth: PUBLIC,
    internal: true,
    body: CustomerSessionRestore,
    errors: ['Unauthorized'],
    status: 200,
    response: CustomerSessionRestored,
    handler: (ctx, { body }, reply) => restoreSession(ctx, body.organization_id, reply),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/customer-portal/customer-session/forget',
    operationId: 'customer_portal:customer_session:forget',
    summary: "Forget the kept customer session of the organization's portal",
    tags: ['customer_portal'],
    auth: PUBLIC,
    internal: true,
    body: CustomerSessionRestore,
    status: 204,
    response: z.undefined(),
    handler: (ctx, { body }, reply) => forgetSession(ctx, body.organization_id, reply),
  }),
];
