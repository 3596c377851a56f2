import { z } from 'zod/v4';
import { SCOPES } from '../../platform/auth/scopes.js';
import { paginationQuery } from '../../platform/http/query.js';
import { DateTime, ListResource } from '../../platform/http/schemas.js';
import { DEFAULT_CLIENT_SCOPE } from './oauth2.rules.js';

/**
 * Wire schemas of the authorization server's calls, named as the reference names them
 * (`@polar-sh/sdk@0.33.2`'s oauth2 models). The calls are served by oauth2.http.ts; these schemas
 * describe them in OpenAPI (oauth2.routes.ts), and the registration body is also what
 * clientMetadataFrom checks.
 */

const Scope = z.enum(SCOPES).meta({ id: 'Scope' });
const nullableUrl = () => z.string().nullish();

const clientMetadata = {
  redirect_uris: z.array(z.string()).min(1),
  token_endpoint_auth_method: z
    .enum(['client_secret_basic', 'client_secret_post', 'none'])
    .default('client_secret_post'),
  grant_types: z
    .array(z.enum(['authorization_code', 'refresh_token']))
    .min(1)
    .default(['authorization_code', 'refresh_token']),
  response_types: z.array(z.literal('code')).min(1).default(['code']),
  scope: z.string().default(DEFAULT_CLIENT_SCOPE),
  client_name: z.string().trim().min(1).max(256),
  client_uri: nullableUrl(),
  logo_uri: nullableUrl(),
  tos_uri: nullableUrl(),
  policy_uri: nullableUrl(),
};

/** RFC 7591 client metadata (POST /v1/oauth2/register). */
export const OAuth2ClientConfiguration = z.object(clientMetadata).meta({ id: 'OAuth2ClientConfiguration' });

/** RFC 7592 update: the metadata and the client's own id. */
export const OAuth2ClientConfigurationUpdate = z
  .object({ ...clientMetadata, client_id: z.string() })
  .meta({ id: 'OAuth2ClientConfigurationUpdate' });

export const OAuth2Client = z
  .object({
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    id: z.uuid(),
    client_id: z.string(),
    client_secret: z.string().meta({
      description:
        'The secret, in the answers that issue it (registration, `POST …/secret`); the empty string otherwise: only its keyed hash is kept.',
    }),
    client_id_issued_at: z.int(),
    client_secret_expires_at: z.int(),
    redirect_uris: z.array(z.string()),
    token_endpoint_auth_method: z.enum(['client_secret_basic', 'client_secret_post', 'none']),
    grant_types: z.array(z.enum(['authorization_code', 'refresh_token'])),
    response_types: z.array(z.string()),
    scope: z.string(),
    client_name: z.string(),
    client_uri: z.string().nullable(),
    logo_uri: z.string().nullable(),
    tos_uri: z.string().nullable(),
    policy_uri: z.string().nullable(),
    registration_client_uri: z.string(),
    registration_access_token: z
      .string()
      .optional()
      .meta({ description: 'RFC 7592 registration access token; only in the answer to the registration.' }),
  })
  .meta({ id: 'OAuth2Client' });

export const ListResourceOAuth2Client = ListResource(OAuth2Client, 'ListResourceOAuth2Client');

export const OAuth2ClientPublic = z
  .object({
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    client_id: z.string(),
    client_name: z.string().nullable(),
    client_uri: z.string().nullable(),
    logo_uri: z.string().nullable(),
    tos_uri: z.string().nullable(),
    policy_uri: z.string().nullable(),
  })
  .meta({ id: 'OAuth2ClientPublic' });

const AuthorizeUser = z
  .object({ id: z.uuid(), email: z.string(), avatar_url: z.string().nullable() })
  .meta({ id: 'AuthorizeUser' });
const AuthorizeOrganization = z
  .object({ id: z.uuid(), slug: z.string(), avatar_url: z.string().nullable() })
  .meta({ id: 'AuthorizeOrganization' });

export const AuthorizeResponse = z
  .discriminatedUnion('sub_type', [
    z
      .object({
        client: OAuth2ClientPublic,
        sub_type: z.literal('user'),
        sub: AuthorizeUser.nullable(),
        scopes: z.array(Scope),
      })
      .meta({ id: 'AuthorizeResponseUser' }),
    z
      .object({
        client: OAuth2ClientPublic,
        sub_type: z.literal('organization'),
        sub: AuthorizeOrganization.nullable(),
        scopes: z.array(Scope),
        organizations: z.array(AuthorizeOrganization),
      })
      .meta({ id: 'AuthorizeResponseOrganization' }),
  ])
  .meta({ id: 'AuthorizeResponse' });

export const AuthorizeQuery = z.object({
  client_id: z.string().optional(),
  redirect_uri: z.string().optional(),
  response_type: z.literal('code').optional(),
  scope: z.string().optional(),
  sub_type: z.enum(['user', 'organization']).optional(),
  sub: z.uuid().optional(),
  state: z.string().optional(),
  uid: z.string().optional().meta({ description: 'An authorization request the server started (the consent page).' }),
});

const clientCredentials = {
  client_id: z.string().optional().meta({ description: 'Or in the Basic Authorization header.' }),
  client_secret: z.string().optional().meta({ description: 'Or in the Basic Authorization header.' }),
};

export const TokenRequest = z
  .discriminatedUnion('grant_type', [
    z
      .object({
        grant_type: z.literal('authorization_code'),
        code: z.string(),
        redirect_uri: z.string(),
        code_verifier: z.string().optional().meta({ description: 'PKCE (S256 or plain).' }),
        ...clientCredentials,
      })
      .meta({ id: 'AuthorizationCodeTokenRequest' }),
    z
      .object({ grant_type: z.literal('refresh_token'), refresh_token: z.string(), ...clientCredentials })
      .meta({ id: 'RefreshTokenRequest' }),
  ])
  .meta({ id: 'TokenRequest' });

export const TokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.int(),
    refresh_token: z.string().optional().meta({ description: 'A new one on every refresh; none for public clients.' }),
    scope: z.string(),
    id_token: z.string().optional().meta({ description: 'RS256 JWT, when `openid` was granted.' }),
  })
  .meta({ id: 'TokenResponse' });

const tokenTypeHint = z.enum(['access_token', 'refresh_token']).optional();

export const IntrospectTokenRequest = z
  .object({ token: z.string(), token_type_hint: tokenTypeHint, ...clientCredentials })
  .meta({ id: 'IntrospectTokenRequest' });

export const IntrospectTokenResponse = z
  .union([
    z
      .object({
        active: z.literal(true),
        client_id: z.string(),
        token_type: z.enum(['access_token', 'refresh_token']),
        scope: z.string(),
        sub_type: z.enum(['user', 'organization']),
        sub: z.string(),
        aud: z.string(),
        iss: z.string(),
        exp: z.int(),
        iat: z.int(),
      })
      .meta({ id: 'IntrospectTokenResponse' }),
    z
      .object({ active: z.literal(false) })
      .meta({ id: 'IntrospectTokenInactive', description: 'Unknown, expired or revoked, or another client’s.' }),
  ])
  .meta({ id: 'IntrospectTokenAnswer' });

export const RevokeTokenRequest = z
  .object({ token: z.string(), token_type_hint: tokenTypeHint, ...clientCredentials })
  .meta({ id: 'RevokeTokenRequest' });

export const RevokeTokenResponse = z.object({}).meta({ id: 'RevokeTokenResponse' });

export const UserInfo = z
  .union([
    z
      .object({ sub: z.string(), email: z.string().optional(), email_verified: z.boolean().optional() })
      .meta({ id: 'UserInfoUser' }),
    z.object({ sub: z.string(), name: z.string().optional() }).meta({ id: 'UserInfoOrganization' }),
  ])
  .meta({ id: 'UserInfo' });

export const ClientIdParams = z.object({ client_id: z.string() });

/**
 * The clients list's query: the bounded `page` and `limit` of every list (platform/http/query.ts), read
 * by oauth2.http.ts and described by oauth2.routes.ts; outside them a 422, as every list answers.
 */
export const ClientListQuery = z.object(paginationQuery);
