import { z } from 'zod/v4';
import { PUBLIC } from '../../platform/auth/subject.js';
import { defineRoute, type RouteReply } from '../../platform/http/route.js';
import { iso } from '../../platform/http/schemas.js';
import type { Config } from '../../config.js';
import { SignIn, SignUp, User } from './auth.schemas.js';
import { currentUser, SESSION_COOKIE, signIn, signOut, signUp, type StartedSession } from './auth.service.js';
import type { UserRow } from './auth.repository.js';

const tags = ['auth'];

function serializeUser(row: UserRow): z.input<typeof User> {
  return { id: row.id, created_at: iso(row.created_at), modified_at: iso(row.modified_at), email: row.email };
}

function cookieOptions(config: Config) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: config.baseUrl.startsWith('https:') };
}

function setSessionCookie(reply: RouteReply, config: Config, session: StartedSession) {
  reply.setCookie(SESSION_COOKIE, session.token, { ...cookieOptions(config), expires: session.expiresAt });
}

export const authRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v1/auth/signup',
    operationId: 'auth:signup',
    summary: 'Create a dashboard user and sign in',
    tags,
    auth: PUBLIC,
    body: SignUp,
    // The password is hashed before the short transaction that writes the user (auth.service.ts).
    transaction: false,
    status: 201,
    response: User,
    handler: async (ctx, { body }, reply) => {
      const session = await signUp(ctx, body);
      setSessionCookie(reply, ctx.config, session);
      return serializeUser(session.user);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/auth/login',
    operationId: 'auth:login',
    summary: 'Sign in with email and password (sets an HttpOnly session cookie)',
    tags,
    auth: PUBLIC,
    body: SignIn,
    errors: ['Unauthorized', 'TooManyRequests'],
    // The password is verified outside any transaction (auth.service.ts).
    transaction: false,
    status: 200,
    response: User,
    handler: async (ctx, { body }, reply) => {
      const session = await signIn(ctx, body);
      setSessionCookie(reply, ctx.config, session);
      return serializeUser(session.user);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/auth/logout',
    operationId: 'auth:logout',
    summary: 'Sign out (ends the session)',
    tags,
    auth: { subjects: ['user'], scopes: [], optional: true },
    status: 204,
    response: z.undefined(),
    handler: async (ctx, _input, reply) => {
      await signOut(ctx);
      reply.clearCookie(SESSION_COOKIE, cookieOptions(ctx.config));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/auth/me',
    operationId: 'auth:me',
    summary: 'The signed-in user',
    tags,
    auth: { subjects: ['user'], scopes: [] },
    status: 200,
    response: User,
    handler: async (ctx) => serializeUser(await currentUser(ctx)),
  }),
];
