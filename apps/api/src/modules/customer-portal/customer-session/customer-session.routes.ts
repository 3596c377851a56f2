import { PUBLIC } from '../../../platform/auth/subject.js';
import { defineRoute } from '../../../platform/http/route.js';
import {
  CustomerSessionCodeAuthenticateRequest,
  CustomerSessionCodeAuthenticateResponse,
  CustomerSessionCodeRequest,
  CustomerSessionCodeRequested,
} from './customer-session.schemas.js';
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
];
