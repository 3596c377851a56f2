import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../src/platform/db/database.js';
import { listMigrations, migrate } from '../src/platform/db/migrate.js';

/**
 * Vitest global setup: one migrated database that every test server starts from, instead of each one
 * running initdb and the migrations. Embedded: a snapshot file keyed by the migrations' contents (kept in the
 * temporary directory and reused while they do not change). Server: a template database for this run,
 * dropped at the end; test databases are created from it. The harness reads both from the environment.
 */
export const EMBEDDED_TEMPLATE_ENV = 'TESSERA_TEST_EMBEDDED_TEMPLATE';
export const SERVER_TEMPLATE_ENV = 'TESSERA_TEST_SERVER_TEMPLATE';

function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const migration of listMigrations()) hash.update(migration.name).update('\0').update(migration.sql);
  return hash.digest('hex').slice(0, 16);
}

async function embeddedTemplate(): Promise<string> {
  const file = join(tmpdir(), `tessera-embedded-template-${migrationsHash()}.tar`);
  if (existsSync(file)) return file;
  const scratch = mkdtempSync(join(tmpdir(), 'tessera-template-'));
  try {
    const database = await openDatabase({ memory: true, socketDir: join(scratch, 'run') });
    try {
      await migrate(database.pool);
      const snapshot = await database.embedded!.snapshot();
      // Written aside and renamed, so that a concurrent run never reads half a file.
      const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
      writeFileSync(partial, Buffer.from(await snapshot.arrayBuffer()));
      renameSync(partial, file);
    } finally {
      await database.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return file;
}

export interface ServerDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A database of its own on the PostgreSQL server at `adminUrl` (optionally a copy of `template`). */
export async function createServerDatabase(
  adminUrl: string,
  options: { prefix: string; template?: string },
): Promise<ServerDatabase> {
  const name = `${options.prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(
      options.template ? `CREATE DATABASE ${name} TEMPLATE ${options.template}` : `CREATE DATABASE ${name}`,
    );
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

let serverTemplate: ServerDatabase | undefined;

async function createServerTemplate(adminUrl: string): Promise<string> {
  serverTemplate = await createServerDatabase(adminUrl, { prefix: 'tessera_template' });
  const database = await openDatabase({ databaseUrl: serverTemplate.url });
  try {
    await migrate(database.pool);
  } finally {
    await database.close();
  }
  return serverTemplate.name;
}

export async function setup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) {
    process.env[SERVER_TEMPLATE_ENV] = await createServerTemplate(process.env.TEST_DATABASE_URL);
  } else {
    process.env[EMBEDDED_TEMPLATE_ENV] = await embeddedTemplate();
  }
}

export async function teardown(): Promise<void> {
  await serverTemplate?.drop();
}

/** The embedded snapshot for this process's test servers, read once. */
let embeddedSeed: Blob | undefined;
export function embeddedTemplateSeed(): Blob | undefined {
  const file = process.env[EMBEDDED_TEMPLATE_ENV];
  if (!file || !existsSync(file)) return undefined;
  embeddedSeed ??= new Blob([readFileSync(file)]);
  return embeddedSeed;
}
