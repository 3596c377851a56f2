import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { exposedDevelopmentWarning, loadConfig, type Role } from './config.js';
import { routes } from './modules/index.js';
import { createUser } from './modules/auth/auth.service.js';
import { addOwner, findOrganizationBySlug } from './modules/organizations/organizations.repository.js';
import { serializeOrganization } from './modules/organizations/organizations.serializer.js';
import { createOrganization } from './modules/organizations/organizations.service.js';
import { advanceOrganizationClock } from './modules/test-clock/test-clock.service.js';
import {
  BulkIngestRefused,
  checkEventLines,
  ingestEventLines,
  progressLine,
  type LineProblem,
} from './modules/events/events.bulk.js';
import { issueOrganizationAccessToken } from './modules/organization-access-tokens/organization-access-tokens.service.js';
import { GRANTABLE_SCOPES, isScope, RESERVED_SCOPES } from './platform/auth/scopes.js';
import type { Subject } from './platform/auth/subject.js';
import { openDatabase } from './platform/db/database.js';
import { organizationClock } from './platform/test-clock.js';
import { migrate } from './platform/db/migrate.js';
import { ApiError, RequestValidationError } from './platform/http/errors.js';
import { buildOpenApiDocument } from './platform/http/openapi.js';
import { listEmails } from './platform/mail/mail.repository.js';
import { serializeOutboxEmail } from './modules/emails/emails.serializer.js';
import { startRuntime, type Runtime } from './runtime.js';
import { MigrateToRefused, migrateTo } from './migrate-to.js';
import { TargetNotEmpty } from './platform/db/copy-database.js';
import { VERSION } from './version.js';
import { rotateSigningKey } from './modules/oauth2/oauth2.provider.js';

/**
 * `tessera`: serve, migrate and administer. Each command works whether or not a server runs on the
 * same DATA_DIR: with the embedded database, a running server's socket is joined instead of opening
 * PGlite a second time.
 */
/** A mistake of the person at the terminal: one line on stderr, no stack trace. */
class UsageError extends Error {}

const program = new Command('tessera').version(VERSION).description('Tessera billing platform');

function parseScopes(value: string): string[] {
  const scopes = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const scope of scopes) {
    if (!isScope(scope) || RESERVED_SCOPES.includes(scope))
      throw new InvalidArgumentError(`unknown or reserved scope "${scope}"`);
  }
  return scopes;
}

/** Runs a command against the database with a quiet runtime (no HTTP, no workers). */
async function withRuntime<T>(fn: (runtime: Runtime) => Promise<T>): Promise<T> {
  const config = loadConfig(process.env, { logLevel: process.env.LOG_LEVEL ?? 'warn' });
  const runtime = await startRuntime(config, { role: 'worker', work: false, logTo: 'stderr' });
  try {
    return await runtime.database.db
      .transaction()
      .execute(async (tx) => fn({ ...runtime, database: { ...runtime.database, db: tx } }));
  } finally {
    await runtime.stop();
  }
}

function fail(error: unknown): never {
  if (error instanceof RequestValidationError) {
    for (const issue of error.issues) process.stderr.write(`error: ${issue.loc.slice(1).join('.')}: ${issue.msg}\n`);
  } else if (error instanceof ApiError || error instanceof UsageError) {
    process.stderr.write(`error: ${error.message}\n`);
  } else {
    process.stderr.write(`error: ${(error as Error).stack ?? String(error)}\n`);
  }
  process.exit(1);
}

program
  .command('serve')
  .description('Start the API server and workers')
  .option('--role <role>', 'all | api | worker', 'all')
  .action(async (options: { role: Role }) => {
    if (!['all', 'api', 'worker'].includes(options.role)) fail(new UsageError(`unknown role ${options.role}`));
    const config = loadConfig();
    const runtime = await startRuntime(config, { role: options.role });
    runtime.log.info(
      {
        role: options.role,
        url: runtime.app ? config.baseUrl : undefined,
        database: config.databaseUrl ? 'server' : 'embedded',
      },
      'tessera started',
    );
    // For the person who just ran `npm start` (stdout carries the JSON logs; this line is for people).
    if (runtime.app) {
      process.stderr.write(
        `\nTessera is running at ${config.baseUrl}\n` +
          `  create your account: ${config.baseUrl}/signup\n` +
          `  API reference:       ${config.baseUrl}/docs\n\n`,
      );
      const exposed = exposedDevelopmentWarning(config);
      if (exposed) {
        runtime.log.warn({ host: config.host }, 'development mode on a non-loopback interface');
        process.stderr.write(`${exposed}\n\n`);
      }
    }
    const shutdown = (signal: string) => {
      runtime.log.info({ signal }, 'shutting down');
      const force = setTimeout(() => process.exit(1), 30_000);
      force.unref();
      runtime.stop().then(
        () => process.exit(0),
        (error) => {
          runtime.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
  });

program
  .command('migrate')
  .description('Apply pending database migrations')
  .action(async () => {
    const config = loadConfig(process.env, { logLevel: 'warn' });
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    try {
      const applied = await migrate(database.pool);
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'up to date\n');
    } finally {
      await database.close();
    }
  });

const org = program.command('org').description('Organizations');
org
  .command('create')
  .description('Create an organization and an access token with every scope')
  .requiredOption('--name <name>')
  .requiredOption('--slug <slug>')
  .option('--json', 'print {"organization", "access_token"} as JSON and nothing else')
  .action(async (options: { name: string; slug: string; json?: boolean }) => {
    try {
      const result = await withRuntime(async (runtime) => {
        const ctx = runtime.context(runtime.database.db);
        const organization = await createOrganization(ctx, { name: options.name, slug: options.slug });
        const { token } = await issueOrganizationAccessToken(ctx.db, {
          organizationId: organization.id,
          scopes: GRANTABLE_SCOPES,
          comment: 'Created by tessera org create',
          expiresAt: null,
          now: ctx.clock.now(),
          secret: ctx.config.secret,
        });
        return { organization: serializeOrganization(organization), access_token: token };
      });
      if (options.json) process.stdout.write(JSON.stringify(result) + '\n');
      else {
        process.stdout.write(`organization ${result.organization.slug} (${result.organization.id}) created\n`);
        process.stdout.write(`access token (shown once): ${result.access_token}\n`);
      }
    } catch (error) {
      fail(error);
    }
  });

const token = program.command('token').description('Organization access tokens');
token
  .command('create')
  .description('Create an organization access token')
  .requiredOption('--org <slug>')
  .option('--scopes <list>', 'comma-separated scopes (default: every scope)', parseScopes)
  .option('--comment <text>', 'what the token is for', 'Created by tessera token create')
  .option('--expires-in-days <days>', 'expire after this many days', (v) => {
    const days = Number(v);
    if (!Number.isInteger(days) || days < 1) throw new InvalidArgumentError('must be a positive integer');
    return days;
  })
  .option('--json', 'print JSON')
  .action(
    async (options: { org: string; scopes?: string[]; comment: string; expiresInDays?: number; json?: boolean }) => {
      try {
        const result = await withRuntime(async (runtime) => {
          const ctx = runtime.context(runtime.database.db);
          const organization = await findOrganizationBySlug(ctx.db, options.org);
          if (!organization || organization.deleted_at)
            throw new UsageError(`no organization with slug "${options.org}"`);
          const now = ctx.clock.now();
          const issued = await issueOrganizationAccessToken(ctx.db, {
            organizationId: organization.id,
            scopes: options.scopes ?? GRANTABLE_SCOPES,
            comment: options.comment,
            expiresAt: options.expiresInDays ? new Date(now.getTime() + options.expiresInDays * 86400_000) : null,
            now,
            secret: ctx.config.secret,
          });
          return {
            id: issued.row.id,
            scopes: issued.row.scopes,
            expires_at: issued.row.expires_at,
            access_token: issued.token,
          };
        });
        process.stdout.write(options.json ? JSON.stringify(result) + '\n' : `${result.access_token}\n`);
      } catch (error) {
        fail(error);
      }
    },
  );

const positiveInteger = (value: string) => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new InvalidArgumentError('must be a whole number, 0 or more');
  return parsed;
};

const clock = program.command('clock').description('Test clocks (not in production)');
clock
  .command('advance')
  .description("Move an organization's clock forward and run everything that became due")
  .requiredOption('--org <slug>')
  .option('--days <days>', 'days to move forward', positiveInteger, 0)
  .option('--hours <hours>', 'hours to move forward', positiveInteger, 0)
  .option('--json', 'print JSON')
  .action(async (options: { org: string; days: number; hours: number; json?: boolean }) => {
    try {
      const seconds = options.days * 86_400 + options.hours * 3600;
      if (seconds <= 0) throw new UsageError('give --days or --hours');
      if (seconds > 3660 * 86_400) throw new UsageError('advance by at most ten years at once');
      const config = loadConfig(process.env, { logLevel: process.env.LOG_LEVEL ?? 'warn' });
      if (!config.devMode)
        throw new UsageError('test clocks do not exist in production (NODE_ENV=production or a live Stripe key)');
      const runtime = await startRuntime(config, { role: 'worker', work: false, logTo: 'stderr' });
      try {
        const ctx = runtime.context();
        const organization = await findOrganizationBySlug(ctx.db, options.org);
        if (!organization || organization.deleted_at)
          throw new UsageError(`no organization with slug "${options.org}"`);
        const result = await advanceOrganizationClock(ctx, organization.id, seconds);
        process.stdout.write(
          options.json
            ? JSON.stringify({ ...result, now: result.now.toISOString() }) + '\n'
            : `${options.org} is now at ${result.now.toISOString()}: ${result.renewals} renewals, ` +
                `${result.charge_attempts} charge attempts, ${result.checkouts_expired} checkouts expired\n`,
        );
      } finally {
        await runtime.stop();
      }
    } catch (error) {
      fail(error);
    }
  });

const mail = program.command('mail').description('Outgoing email (the outbox)');
mail
  .command('list')
  .description('List outgoing emails, newest first (without SMTP_URL they stay here, in the local outbox)')
  .option('--org <slug>', "only this organization's")
  .option('--limit <n>', 'how many', positiveInteger, 20)
  .option('--json', 'print JSON (one object with the emails, bodies included)')
  .action(async (options: { org?: string; limit: number; json?: boolean }) => {
    try {
      const emails = await withRuntime(async (runtime) => {
        const ctx = runtime.context(runtime.database.db);
        if (options.org) {
          const organization = await findOrganizationBySlug(ctx.db, options.org);
          if (!organization) throw new UsageError(`no organization with slug "${options.org}"`);
        }
        const { items } = await listEmails(ctx.db, {
          organizationSlug: options.org,
          limit: Math.max(1, options.limit),
          offset: 0,
        });
        return items;
      });
      if (options.json) {
        const items = emails.map((row) => ({ ...serializeOutboxEmail(row), organization_slug: row.organization_slug }));
        process.stdout.write(JSON.stringify({ items }, null, 2) + '\n');
        return;
      }
      if (emails.length === 0) process.stdout.write('no emails\n');
      for (const row of emails) {
        const when = (row.sent_at ?? row.created_at).toISOString();
        const where = row.status === 'sent' ? `sent via ${row.transport}` : row.status;
        process.stdout.write(
          `${when}  ${row.organization_slug ?? '-'}  ${where}  ${row.template ?? row.kind}\n` +
            `  to: ${row.to_addresses.join(', ')}\n  subject: ${row.subject}\n`,
        );
      }
    } catch (error) {
      fail(error);
    }
  });

const events = program.command('events').description('Usage events');
events
  .command('ingest')
  .description(
    'Bulk-load usage events from a JSON Lines file (one event per line, as in POST /v1/events/ingest), ' +
      'straight into the database: every line is checked first, then batches are inserted',
  )
  .argument('<file>', 'JSON Lines file')
  .requiredOption('--org <slug>')
  .option('--batch-size <n>', 'events per batch (one transaction each), 1 to 10000', positiveInteger, 1000)
  .option('--json', 'print the result as JSON')
  .action(async (file: string, options: { org: string; batchSize: number; json?: boolean }) => {
    try {
      if (options.batchSize < 1 || options.batchSize > 10_000)
        throw new UsageError('--batch-size must be between 1 and 10000');
      if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
      const printProblems = (problems: LineProblem[]) => {
        for (const problem of problems.slice(0, 50)) {
          process.stderr.write(`error: line ${problem.line}: ${problem.message}\n`);
        }
        if (problems.length > 50) process.stderr.write(`error: … and ${problems.length - 50} more\n`);
      };
      const checked = await checkEventLines(file);
      if (checked.problems.length > 0) {
        printProblems(checked.problems);
        throw new UsageError(`${file}: ${checked.problems.length} problem(s); nothing was inserted`);
      }
      const config = loadConfig(process.env, { logLevel: process.env.LOG_LEVEL ?? 'warn' });
      const runtime = await startRuntime(config, { role: 'worker', work: false, logTo: 'stderr' });
      try {
        const organization = await findOrganizationBySlug(runtime.database.db, options.org);
        if (!organization || organization.deleted_at)
          throw new UsageError(`no organization with slug "${options.org}"`);
        const subject: Subject = {
          kind: 'organization',
          organizationId: organization.id,
          tokenId: 'cli',
          scopes: new Set(),
        };
        // The organization's own clock (a test clock outside production), as the API would read it.
        const clock = await organizationClock(runtime.database.db, config, runtime.clock, organization.id);
        const started = Date.now();
        let lastPrint = 0;
        const interactive = process.stderr.isTTY === true;
        const print = (done: number, final = false) => {
          const now = Date.now();
          if (!final && now - lastPrint < (interactive ? 200 : 1000)) return;
          lastPrint = now;
          const line = progressLine(done, checked.events, now - started);
          process.stderr.write(interactive ? `\r${line}\x1b[K${final ? '\n' : ''}` : `${line}\n`);
        };
        let result;
        try {
          result = await ingestEventLines(
            file,
            options.batchSize,
            (run) => runtime.database.db.transaction().execute((tx) => run({ ...runtime.context(tx, subject), clock })),
            (progress) => print(progress.done),
          );
        } catch (error) {
          if (!(error instanceof BulkIngestRefused)) throw error;
          print(error.progress.done, true);
          printProblems(error.problems);
          throw new UsageError(
            `a batch was refused: ${error.progress.inserted} events were inserted before it ` +
              '(with external_id on every event, running the command again after fixing the file is safe)',
          );
        }
        print(result.done, true);
        const summary = { events: result.done, inserted: result.inserted, duplicates: result.duplicates };
        process.stdout.write(
          options.json
            ? JSON.stringify(summary) + '\n'
            : `${summary.inserted} events inserted, ${summary.duplicates} duplicates skipped\n`,
        );
      } finally {
        await runtime.stop();
      }
    } catch (error) {
      fail(error);
    }
  });

program
  .command('migrate-to')
  .description(
    'Copy this embedded installation (DATA_DIR, stopped) into an empty PostgreSQL database: every table, ' +
      'sequence, queued job and key; then run the servers with DATABASE_URL and the same SECRET',
  )
  .requiredOption('--database-url <url>', 'postgres://user:password@host:5432/database (an empty database)')
  .option('--batch-size <n>', 'rows per insert, 1 to 10000', positiveInteger, 1000)
  .action(async (options: { databaseUrl: string; batchSize: number }) => {
    try {
      if (!/^postgres(?:ql)?:\/\//.test(options.databaseUrl))
        throw new UsageError('--database-url must be a postgres:// or postgresql:// URL');
      if (options.batchSize < 1 || options.batchSize > 10_000)
        throw new UsageError('--batch-size must be between 1 and 10000');
      if (process.env.DATABASE_URL)
        throw new UsageError('DATABASE_URL is set: migrate-to copies the embedded database of DATA_DIR; unset it');
      const config = loadConfig(process.env, { logLevel: process.env.LOG_LEVEL ?? 'warn' });
      const result = await migrateTo(config, options.databaseUrl, {
        batchSize: options.batchSize,
        onTable: (progress) => process.stderr.write(`${progress.table}: ${progress.rows} rows\n`),
      });
      const rows = result.tables.reduce((sum, table) => sum + table.rows, 0);
      process.stdout.write(
        `copied ${rows} rows in ${result.tables.length} tables and ${result.sequences} sequences\n` +
          'Next: start every node with DATABASE_URL set to this database and ' +
          (process.env.SECRET
            ? 'the same SECRET as this installation'
            : `SECRET set to the contents of ${config.dataDir}/secret`) +
          ' (access tokens, sessions and links are keyed by it), and carry DATA_DIR/storage over ' +
          'unless files are on S3 (docs/operations.md).\n',
      );
    } catch (error) {
      fail(
        error instanceof MigrateToRefused || error instanceof TargetNotEmpty ? new UsageError(error.message) : error,
      );
    }
  });

const oauth2 = program.command('oauth2').description('The OAuth2 / OpenID Connect server');
oauth2
  .command('rotate-key')
  .description('Generate a new ID token signing key (RS256); the previous one stays published for a week')
  .action(async () => {
    try {
      const kid = await withRuntime((runtime) => rotateSigningKey(runtime.database.db, new Date()));
      process.stdout.write(`${kid}\n`);
      process.stderr.write('Restart the API servers to sign with the new key.\n');
    } catch (error) {
      fail(error);
    }
  });

const user = program.command('user').description('Dashboard users');
user
  .command('create')
  .description('Create a dashboard user, optionally a member of an organization')
  .requiredOption('--email <email>')
  .requiredOption('--password <password>')
  .option('--org <slug>', 'make the user an owner of this organization')
  .action(async (options: { email: string; password: string; org?: string }) => {
    try {
      if (options.password.length < 8) throw new UsageError('the password must be at least 8 characters');
      const created = await withRuntime(async (runtime) => {
        const ctx = runtime.context(runtime.database.db);
        const row = await createUser(ctx.db, {
          email: options.email,
          password: options.password,
          now: ctx.clock.now(),
        });
        if (options.org) {
          const organization = await findOrganizationBySlug(ctx.db, options.org);
          if (!organization || organization.deleted_at)
            throw new UsageError(`no organization with slug "${options.org}"`);
          await addOwner(ctx.db, organization.id, row.id, ctx.clock.now());
        }
        return row;
      });
      process.stdout.write(`user ${created.email} (${created.id}) created\n`);
    } catch (error) {
      fail(error);
    }
  });

program
  .command('openapi')
  .description('Print the OpenAPI document, write it to a file, or check a file is current')
  .option('--write <file>')
  .option('--check <file>')
  .action((options: { write?: string; check?: string }) => {
    const text = JSON.stringify(buildOpenApiDocument(routes, { version: VERSION }), null, 2) + '\n';
    if (options.write) writeFileSync(options.write, text);
    else if (options.check) {
      let committed = '';
      try {
        committed = readFileSync(options.check, 'utf8');
      } catch {
        // missing counts as stale
      }
      if (committed !== text) {
        process.stderr.write(`${options.check} is stale: run \`npm run openapi\` and commit the result\n`);
        process.exit(1);
      }
      process.stdout.write(`${options.check} is current\n`);
    } else process.stdout.write(text);
  });

program.parseAsync().catch(fail);
