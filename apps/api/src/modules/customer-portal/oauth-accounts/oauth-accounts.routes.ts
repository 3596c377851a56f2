import { z } from 'zod/v4';
import { write } from '../../../platform/auth/scopes.js';
import { defineRoute } from '../../../platform/http/route.js';
import {
  AuthorizeResponse,
  CustomerOAuthAccountConnected,
  OAuthAccountAuthorizeQuery,
  OAuthAccountCallback,
  OAuthAccountParams,
} from './oauth-accounts.schemas.js';
import { authorizeOAuthAccount, completeOAuthAccount, disconnectOAuthAccount } from './oauth-accounts.service.js';

const tags = ['customer_portal'];

/** Connected Discord and GitHub accounts (private in the reference too: the portal's own calls). */
export const portalOAuthAccountRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/customer-portal/oauth-accounts/authorize',
    operationId: 'customer_portal:oauth_accounts:authorize',
    summary: 'Start connecting a Discord or GitHub account: the URL to send the browser to',
    tags,
    auth: { subjects: ['customer'], scopes: write('customer_portal') },
    internal: true,
    // It records the authorization's state.
    transaction: true,
    query: OAuthAccountAuthorizeQuery,
    errors: ['BadRequest', 'ResourceNotFound'],
    status: 200,
    response: AuthorizeResponse,
    handler: (ctx, { query }) => authorizeOAuthAccount(ctx, query),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/customer-portal/oauth-accounts/callback',
    operationId: 'customer_portal:oauth_accounts:callback',
    summary: "Finish connecting an account with the provider's code (the state must be this session's)",
    tags,
    auth: { subjects: ['customer'], scopes: write('customer_portal') },
    internal: true,
    extension: true,
    // The code is exchanged with the provider between two short transactions.
    transaction: false,
    body: OAuthAccountCallback,
    errors: ['BadRequest', 'NotPermitted', 'ResourceAlreadyExists'],
    status: 200,
    response: CustomerOAuthAccountConnected,
    handler: (ctx, { body }) => completeOAuthAccount(ctx, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/customer-portal/oauth-accounts/{platform}/{account_id}',
    operationId: 'customer_portal:oauth_accounts:delete',
    summary: 'Disconnect a Discord or GitHub account',
    tags,
    auth: { subjects: ['customer'], scopes: write('customer_portal') },
    internal: true,
    extension: true,
    params: OAuthAccountParams,
    errors: ['ResourceNotFound'],
    status: 204,
    response: z.undefined(),
    handler: (ctx, { params }) => disconnectOAuthAccount(ctx, params),
  }),
];
