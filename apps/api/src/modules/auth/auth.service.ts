import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import type { Executor } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { Unauthorized, validationError } from '../../platform/http/errors.js';
import {
  DUMMY_PASSWORD_HASH,
  generateToken,
  hashPassword,
  hashToken,
  TOKEN_PREFIX,
  verifyPassword,
} from '../../platform/auth/tokens.js';
import {
  deleteSession,
  findUserByEmail,
  findUserById,
  insertSession,
  insertUser,
  type UserRow,
} from './auth.repository.js';

export const SESSION_COOKIE = 'tessera_session';
export const SESSION_TTL_MS = 30 * 86400 * 1000;

/** Creates a user; a second account for the same email (any case) is a 422. Hashes outside any transaction. */
export async function createUser(
  db: Executor,
  input: { email: string; password: string; now: Date },
): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password);
  return insertNewUser(db, { email: input.email, passwordHash, now: input.now });
}

async function insertNewUser(
  db: Executor,
  input: { email: string; passwordHash: string; now: Date },
): Promise<UserRow> {
  if (await findUserByEmail(db, input.email)) {
    throw validationError(['body', 'email'], 'A user with this email already exists.');
  }
  try {
    return await insertUser(db, {
      id: randomUUID(),
      created_at: input.now,
      modified_at: null,
      email: input.email,
      password_hash: input.passwordHash,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw validationError(['body', 'email'], 'A user with this email already exists.');
    throw error;
  }
}

export interface StartedSession {
  user: UserRow;
  token: string;
  expiresAt: Date;
}

async function startSession(ctx: Context, user: UserRow): Promise<StartedSession> {
  const token = generateToken(TOKEN_PREFIX.userSession);
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await insertSession(ctx.db, {
    id: randomUUID(),
    created_at: now,
    token_hash: hashToken(token, ctx.config.secret),
    user_id: user.id,
    expires_at: expiresAt,
    user_agent: ctx.request?.userAgent?.slice(0, 500) ?? null,
  });
  return { user, token, expiresAt };
}

/**
 * Sign-up and sign-in run without a request transaction (`transaction: false`): the password is hashed
 * or verified first (slow on purpose, so never while a transaction holds a connection), then the writes
 * go in one short transaction.
 */
function assertNoTransaction(ctx: Context): void {
  if (ctx.db.isTransaction) throw new Error('passwords are hashed and verified outside any database transaction');
}

function inShortTransaction<T>(ctx: Context, work: (ctx: Context) => Promise<T>): Promise<T> {
  return ctx.transactions ? ctx.transactions.transaction(work) : work(ctx);
}

export async function signUp(ctx: Context, input: { email: string; password: string }): Promise<StartedSession> {
  assertNoTransaction(ctx);
  const passwordHash = await hashPassword(input.password);
  return inShortTransaction(ctx, async (tx) => {
    const user = await insertNewUser(tx.db, { email: input.email, passwordHash, now: tx.clock.now() });
    return startSession(tx, user);
  });
}

export async function signIn(ctx: Context, input: { email: string; password: string }): Promise<StartedSession> {
  assertNoTransaction(ctx);
  const user = await findUserByEmail(ctx.db, input.email);
  // Verify against a dummy hash when the user is unknown, so timing does not reveal which emails exist.
  const valid = await verifyPassword(input.password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!user || !valid) throw new Unauthorized('Invalid email or password.');
  return inShortTransaction(ctx, (tx) => startSession(tx, user));
}

export async function signOut(ctx: Context): Promise<void> {
  if (ctx.subject.kind === 'user' && ctx.subject.sessionId) await deleteSession(ctx.db, ctx.subject.sessionId);
}

export async function currentUser(ctx: Context): Promise<UserRow> {
  if (ctx.subject.kind !== 'user') throw new Unauthorized();
  const user = await findUserById(ctx.db, ctx.subject.userId);
  if (!user) throw new Unauthorized();
  return user;
}
