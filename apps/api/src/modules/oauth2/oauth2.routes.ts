import { z } from 'zod/v4';
import { PUBLIC, type AuthRequirement } from '../../platform/auth/subject.js';
import { defineRoute, type AnyRoute } from '../../platform/http/route.js';
import {
  AuthorizeQuery,
  AuthorizeResponse,
  ClientIdParams,
  ClientListQuery,
  IntrospectTokenRequest,
  IntrospectTokenResponse,
  ListResourceOAuth2Client,
  OAuth2Client,
  OAuth2ClientConfiguration,
  OAuth2ClientConfigurationUpdate,
  RevokeTokenRequest,
  RevokeTokenResponse,
  TokenRequest,
  TokenResponse,
  UserInfo,
} from './oauth2.schemas.js';

/**
 * The authorization server's calls as OpenAPI describes them. They are OAuth's wire (form bodies,
 * `{error, error_description}` errors), served by oauth2.http.ts, the protocol ones by oidc-provider:
 * these definitions are descriptions only (`oauth2`), never registered as routes.
 */

function servedByOAuth2Http(): never {
  throw new Error('Served by modules/oauth2/oauth2.http.ts');
}

const FORM = 'application/x-www-form-urlencoded' as const;
const TAGS = ['oauth2'];
/** A dashboard user (session cookie, or its token as a bearer). */
const WEB_USER: AuthRequirement = { subjects: ['user'], scopes: [] };
/** An OAuth2 access token (of a user or an organization). */
const OAUTH2_TOKEN: AuthRequirement = { subjects: ['organization'], scopes: [] };

export const oauth2Routes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/v1/oauth2/authorize',
    operationId: 'oauth2:authorize',
    summary:
      'What the consent page shows for an authorization request (the standard parameters, or `uid` of a request the server started)',
    tags: TAGS,
    auth: { ...WEB_USER, optional: true },
    query: AuthorizeQuery,
    oauth2: { errors: [400] },
    status: 200,
    response: AuthorizeResponse,
    handler: servedByOAuth2Http,
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/oauth2/token',
    operationId: 'oauth2:token',
    summary: 'Exchange an authorization code (PKCE S256 or plain) or a refresh token (rotated) for tokens',
    tags: TAGS,
    auth: PUBLIC,
    consumes: FORM,
    body: TokenRequest,
    oauth2: { errors: [400, 401, 429] },
    status: 200,
    response: TokenResponse,
    handler: servedByOAuth2Http,
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/oauth2/introspect',
    operationId: 'oauth2:introspect',
    summary: 'Describe a token to the client it was issued to (RFC 7662)',
    tags: TAGS,
    auth: PUBLIC,
    consumes: FORM,
    body: IntrospectTokenRequest,
    oauth2: { errors: [400, 401, 429] },
    status: 200,
    response: IntrospectTokenResponse,
    handler: servedByOAuth2Http,
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/oauth2/revoke',
    operationId: 'oauth2:revoke',
    summary: 'Revoke a token of the calling client (RFC 7009)',
    tags: TAGS,
    auth: PUBLIC,
    consumes: FORM,
    body: RevokeTokenRequest,
    oauth2: { errors: [400, 401, 429] },
    status: 200,
    response: RevokeTokenResponse,
    handler: servedByOAuth2Http,
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/oauth2/userinfo',
    operationId: 'oauth2:userinfo',
    summary: 'The claims of the OAuth2 access token’s subject (OpenID Connect UserInfo; also POST)',
    tags: TAGS,
    auth: OAUTH2_TOKEN,
    oauth2: { errors: [401] },
    status: 200,
    response: UserInfo,
    handler: servedByOAuth2Http,
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/oauth2/',
    operationId: 'oauth2:clients:list',
    summary: 'The clients the dashboard user registered, newest first',
    tags: TAGS,
    auth: WEB_USER,
    query: ClientListQuery,
    oauth2: { errors: [401, 422] },
    status: 200,
    response: ListResourceOAuth2Client,
    handler: servedByOAuth2Http,
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/oauth2/register',
    operationId: 'oauth2:clients:create',
    summary:
      'Register a client (RFC 7591); the answer holds its secret and registration access token, shown this once (200, as the reference)',
    tags: TAGS,
    auth: WEB_USER,
    body: OAuth2ClientConfiguration,
    oauth2: { errors: [400, 401] },
    status: 200,
    response: OAuth2Client,
    handler: servedByOAuth2Http,
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/oauth2/register/{client_id}',
    operationId: 'oauth2:clients:get',
    summary: 'A client (RFC 7592), for its owner’s session or `Bearer` its registration access token',
    tags: TAGS,
    auth: WEB_USER,
    params: ClientIdParams,
    oauth2: { errors: [401] },
    status: 200,
    response: OAuth2Client,
    handler: servedByOAuth2Http,
  }),
  defineRoute({
    method: 'PUT',
    path: '/v1/oauth2/register/{client_id}',
    operationId: 'oauth2:clients:update',
    summary: 'Update a client’s metadata (RFC 7592), for its owner’s session or its registration access token',
    tags: TAGS,
    auth: WEB_USER,
    params: ClientIdParams,
    body: OAuth2ClientConfigurationUpdate,
    oauth2: { errors: [400, 401] },
    status: 200,
    response: OAuth2Client,
    handler: servedByOAuth2Http,
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/oauth2/register/{client_id}',
    operationId: 'oauth2:clients:delete',
    summary: 'Delete a client (RFC 7592); answers 200 `{}`, as the reference',
    tags: TAGS,
    auth: WEB_USER,
    params: ClientIdParams,
    oauth2: { errors: [401] },
    status: 200,
    response: z.object({}),
    handler: servedByOAuth2Http,
  }),
];
