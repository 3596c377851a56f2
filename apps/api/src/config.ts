import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseNetworks, type Network } from './modules/webhooks/webhooks.url-guard.js';

export type Role = 'all' | 'api' | 'worker';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Unset means the embedded PGlite database under `dataDir`. */
  databaseUrl: string | undefined;
  /**
   * Connections this process's pool may open (`DATABASE_POOL_SIZE`, 10); the job queue holds up to 4
   * more. Size the server's max_connections for every node (docs/operations.md).
   */
  databasePoolSize: number;
  /** Server secret: keys token hashes. Never logged. */
  secret: string;
  baseUrl: string;
  production: boolean;
  /**
   * Development conveniences (test clock, simulated payments, http and loopback webhooks): on unless
   * `NODE_ENV=production` or a live Stripe key is configured (`npm start` alone is development).
   */
  devMode: boolean;
  allowSimulatedPayments: boolean;
  /** Stripe keys (STRIPE_SECRET_KEY turns the Stripe adapter on); never logged. */
  stripeSecretKey: string | undefined;
  stripePublishableKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  logLevel: string;
  /** Validate every response against its route schema (off in production for speed). */
  validateResponses: boolean;
  bodyLimit: number;
  /** Baseline routes under /__bench for `npm run bench` (`TESSERA_BENCH_ROUTES=1`); off unless set. */
  benchRoutes: boolean;
  /** How long a checkout stays open (`CHECKOUT_TTL_SECONDS`, default 24 h as the reference today). */
  checkoutTtlSeconds: number;
  /** Webhook delivery: per-attempt timeout (ms). */
  webhookTimeoutMs: number;
  /** Webhook endpoints one worker process delivers to at once (each endpoint in order). */
  webhookConcurrency: number;
  /**
   * How often (ms) a worker looks for due webhook deliveries without being woken by a commit's
   * notification: the fallback for a lost notification or a lease left by a worker that died.
   */
  webhookPollIntervalMs: number;
  /** Delays (seconds) before each retry of a failed webhook delivery; exhausted ⇒ the event fails. */
  webhookRetrySchedule: number[];
  /** Random spread added to each retry delay, as a fraction of it (0.2 = up to +20 %). */
  webhookRetryJitter: number;
  /**
   * Networks webhooks may reach although they are not public (`WEBHOOK_ALLOWED_NETWORKS`, CIDR blocks):
   * receivers inside the operator's own network. Empty by default.
   */
  webhookAllowedNetworks: Network[];
  /** An endpoint failing continuously for this long (seconds) is disabled and its organization told. */
  webhookDisableAfterSeconds: number;
  /** …or after this many consecutive failed attempts (0: only the time threshold applies). */
  webhookDisableAfterFailures: number;
  /** Discord bot token for discord benefits (`DISCORD_BOT_TOKEN`); unset: their grants wait. Never logged. */
  discordBotToken: string | undefined;
  /** GitHub token for github_repository benefits (`GITHUB_TOKEN`); unset: their grants wait. Never logged. */
  githubToken: string | undefined;
  /**
   * The OAuth apps customers connect their accounts with, and Discord's bot authorization (server
   * settings, as the reference: `DISCORD_CLIENT_ID`/`DISCORD_CLIENT_SECRET`,
   * `GITHUB_CLIENT_ID`/`GITHUB_CLIENT_SECRET`; secrets never logged). Unset: "Connect" is not offered.
   */
  discordClientId: string | undefined;
  discordClientSecret: string | undefined;
  githubClientId: string | undefined;
  githubClientSecret: string | undefined;
  /**
   * Where Discord and GitHub are (`DISCORD_URL`, `GITHUB_URL`, `GITHUB_API_URL`): the public services
   * by default; GitHub Enterprise Server, or the local fakes of the tests.
   */
  discordUrl: string;
  githubUrl: string;
  githubApiUrl: string;
  /**
   * Rate limits (platform/http/rate-limit.ts): requests per minute per organization, user, customer or
   * anonymous IP on the whole API (`RATE_LIMIT_API_PER_MINUTE`, 500 as the reference), and a factor
   * applied to the built-in limits of sign-in, checkouts and license keys (`RATE_LIMIT_SCALE`, 1).
   */
  rateLimits: {
    apiPerMinute: number;
    scale: number;
    /** How often each node writes its batched counts (1000 ms; tests that count statements wait longer). */
    flushMs?: number;
  };
  /**
   * Which peers may say who the client is with X-Forwarded-For (`TRUST_PROXY`: a list of addresses,
   * CIDRs or the presets loopback, linklocal, uniquelocal; true or false). The client
   * address is the first one from the right that is not a trusted proxy, so addresses a client prepends
   * are ignored. Default: loopback and private networks (a reverse proxy on the host or in the
   * deployment's network).
   */
  trustProxy: boolean | string;
  /**
   * Outgoing mail (platform/mail): `SMTP_URL` (smtp:// or smtps://, credentials in it; never logged)
   * sends through that server; unset, emails stay in the local outbox (`tessera mail list`).
   */
  smtpUrl: string | undefined;
  /** The sender address (`MAIL_FROM`, default `noreply@` the host of BASE_URL); the display name is the organization's. */
  mailFrom: string;
  /**
   * Object storage (platform/storage): S3-compatible when `S3_BUCKET` is set (`S3_ENDPOINT` for MinIO,
   * R2, Ceph…; `S3_PUBLIC_BUCKET` for product media and avatars, default the same bucket;
   * `S3_REGION`, `S3_ACCESS_KEY_ID`/`S3_SECRET_ACCESS_KEY` (never logged), `S3_FORCE_PATH_STYLE`);
   * otherwise the local disk under `DATA_DIR/storage`.
   */
  s3: S3Config | undefined;
  /** How long part upload and file download URLs stay valid (`FILES_PRESIGN_TTL_SECONDS`, 600 as the reference). */
  filesPresignTtlSeconds: number;
}

export interface S3Config {
  endpoint: string | undefined;
  bucket: string;
  publicBucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
}

/** The S3 settings of the environment, or undefined (local disk) when `S3_BUCKET` is unset. */
export function s3ConfigFrom(env: NodeJS.ProcessEnv): S3Config | undefined {
  if (!env.S3_BUCKET) return undefined;
  return {
    endpoint: env.S3_ENDPOINT || undefined,
    bucket: env.S3_BUCKET,
    publicBucket: env.S3_PUBLIC_BUCKET || env.S3_BUCKET,
    region: env.S3_REGION || 'us-east-1',
    accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
    forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true' || env.S3_FORCE_PATH_STYLE === '1',
  };
}

/** `TRUST_PROXY` as Fastify takes it. */
export function parseTrustProxy(raw: string | undefined): boolean | string {
  const value = (raw ?? '').trim();
  if (value === '') return 'loopback,linklocal,uniquelocal';
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function numberListFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number[]): number[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const values = raw.split(',').map((part) => Number(part.trim()));
  if (values.some((value) => !Number.isFinite(value) || value < 0))
    throw new Error(`${name} must be a comma-separated list of non-negative numbers, got "${raw}"`);
  return values;
}

/** Standard Webhooks' example schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h (≈ 3 days). */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];

/** Reads `SECRET`, or the secret generated once into `DATA_DIR/secret`. */
function loadSecret(env: NodeJS.ProcessEnv, dataDir: string): string {
  if (env.SECRET) {
    if (env.SECRET.length < 32) throw new Error('SECRET must be at least 32 characters');
    return env.SECRET;
  }
  const file = join(dataDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process created it first: use theirs, so every process agrees on one key.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
  chmodSync(file, 0o600);
  return secret;
}

/** A live Stripe key (secret or restricted): real money, whatever `NODE_ENV` says. */
export function isLiveStripeKey(key: string | undefined): boolean {
  return Boolean(key && /^(?:sk|rk)_live_/.test(key));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const production = env.NODE_ENV === 'production';
  // With real money no development convenience is ever on: no test clock, no simulated card.
  const live = isLiveStripeKey(env.STRIPE_SECRET_KEY);
  const dataDir = resolve(overrides.dataDir ?? env.DATA_DIR ?? './data');
  const port = overrides.port ?? intFromEnv(env, 'PORT', 8000);
  const host = overrides.host ?? env.HOST ?? (production ? '0.0.0.0' : '127.0.0.1');
  const baseUrl = (overrides.baseUrl ?? env.BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const config: Config = {
    port,
    host,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolSize: Math.max(1, intFromEnv(env, 'DATABASE_POOL_SIZE', 10)),
    secret: '',
    baseUrl,
    production,
    devMode: !production && !live,
    allowSimulatedPayments: !live && (!production || env.ALLOW_SIMULATED_PAYMENTS === 'true'),
    stripeSecretKey: env.STRIPE_SECRET_KEY || undefined,
    stripePublishableKey: env.STRIPE_PUBLISHABLE_KEY || undefined,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    validateResponses: !production,
    bodyLimit: intFromEnv(env, 'BODY_LIMIT', 1024 * 1024),
    benchRoutes: env.TESSERA_BENCH_ROUTES === '1',
    checkoutTtlSeconds: intFromEnv(env, 'CHECKOUT_TTL_SECONDS', 24 * 60 * 60),
    webhookTimeoutMs: intFromEnv(env, 'WEBHOOK_TIMEOUT_MS', 10_000),
    webhookConcurrency: intFromEnv(env, 'WEBHOOK_CONCURRENCY', 16),
    webhookPollIntervalMs: intFromEnv(env, 'WEBHOOK_POLL_INTERVAL_MS', 2_000),
    webhookRetrySchedule: numberListFromEnv(env, 'WEBHOOK_RETRY_SCHEDULE', DEFAULT_WEBHOOK_RETRY_SCHEDULE),
    webhookRetryJitter: intFromEnv(env, 'WEBHOOK_RETRY_JITTER_PERCENT', 20) / 100,
    webhookAllowedNetworks: parseNetworks(env.WEBHOOK_ALLOWED_NETWORKS ?? ''),
    webhookDisableAfterSeconds: intFromEnv(env, 'WEBHOOK_DISABLE_AFTER_SECONDS', 3 * 24 * 3600),
    webhookDisableAfterFailures: intFromEnv(env, 'WEBHOOK_DISABLE_AFTER_FAILURES', 0),
    discordBotToken: env.DISCORD_BOT_TOKEN || undefined,
    githubToken: env.GITHUB_TOKEN || undefined,
    discordClientId: env.DISCORD_CLIENT_ID || undefined,
    discordClientSecret: env.DISCORD_CLIENT_SECRET || undefined,
    githubClientId: env.GITHUB_CLIENT_ID || undefined,
    githubClientSecret: env.GITHUB_CLIENT_SECRET || undefined,
    discordUrl: (env.DISCORD_URL || 'https://discord.com').replace(/\/+$/, ''),
    githubUrl: (env.GITHUB_URL || 'https://github.com').replace(/\/+$/, ''),
    githubApiUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''),
    rateLimits: {
      apiPerMinute: Math.max(1, intFromEnv(env, 'RATE_LIMIT_API_PER_MINUTE', 500)),
      scale: Math.max(1, intFromEnv(env, 'RATE_LIMIT_SCALE', 1)),
    },
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || `noreply@${new URL(baseUrl).hostname}`,
    s3: s3ConfigFrom(env),
    filesPresignTtlSeconds: Math.max(1, intFromEnv(env, 'FILES_PRESIGN_TTL_SECONDS', 600)),
    ...overrides,
  };
  if (!config.secret) config.secret = loadSecret(env, dataDir);
  if (config.stripeSecretKey && !config.stripePublishableKey) {
    // The hosted checkout loads Stripe's Payment Element with it; without it no buyer could pay.
    throw new Error('STRIPE_PUBLISHABLE_KEY is required with STRIPE_SECRET_KEY');
  }
  if (isLiveStripeKey(config.stripeSecretKey)) {
    // Also when the key came in through overrides.
    config.devMode = false;
    config.allowSimulatedPayments = false;
  }
  return config;
}

const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|::1|\[::1\]|::ffff:127(?:\.\d{1,3}){3})$/i;

/**
 * The warning printed at start when development conveniences are on while the server listens beyond
 * this machine (anyone who reaches it can move test clocks and pay with test cards). Pure.
 */
export function exposedDevelopmentWarning(config: Pick<Config, 'devMode' | 'host'>): string | undefined {
  if (!config.devMode || LOOPBACK_HOST.test(config.host)) return undefined;
  return (
    `WARNING: development mode (NODE_ENV is not "production") on ${config.host}, which is reachable from ` +
    'other machines: test clocks, simulated payments and http webhooks are on for anyone who reaches it. ' +
    'Set NODE_ENV=production for a real deployment, or HOST=127.0.0.1 to keep it on this machine.'
  );
}
