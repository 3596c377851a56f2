import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { PGliteServer } from './pglite-server.js';

/**
 * The embedded database: PGlite persisted in DATA_DIR, served over the PostgreSQL wire protocol on a
 * unix socket so that the same `pg` driver, migrations and job queue work for both the embedded and the
 * server database. PGlite admits one process per data directory: the process that opens it writes
 * `run/embedded.json`, and any other process (the CLI next to a running server) connects to its socket.
 * The wire protocol is served by `PGliteServer` (see there for how connections take turns).
 */
export interface EmbeddedDatabase {
  connection: pg.PoolConfig;
  /** True when this process owns PGlite; false when it reached another process's socket. */
  owned: boolean;
  /** The whole database as a tarball (`PGlite.dumpDataDir`); only the owning process can take one. */
  snapshot(): Promise<Blob>;
  /**
   * Calls `listener` with the payload of every notification on `channel` committed by any client of
   * the database (the owning process only; undefined in a process that joined another's socket).
   */
  onNotification?(channel: string, listener: (payload: string) => void): Promise<() => void>;
  stop(): Promise<void>;
}

const notOwned = async (): Promise<Blob> => {
  throw new Error('only the process that owns the embedded database can snapshot it');
};

const SOCKET_PORT = 5432;

/**
 * An installation's database on disk: PGlite's defaults with 16 MB of shared buffers instead of 128 MB.
 * The buffers live in the WebAssembly heap, which never shrinks, so they stay resident for the life of
 * the process: an idle server went from about 440 MB to about 300 MB. Pages that do not fit are read
 * back through the operating system's page cache. Tests (in memory) keep the defaults.
 */
const ON_DISK_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

interface RunFile {
  pid: number;
  socketDir: string;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readRunFile(file: string): RunFile | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as RunFile;
  } catch {
    return undefined;
  }
}

function connectionFor(socketDir: string): pg.PoolConfig {
  return { host: socketDir, port: SOCKET_PORT, user: 'postgres', database: 'postgres' };
}

/**
 * Opens the embedded database under `dataDir`, or joins the process that already has it open.
 * `dataDir` undefined gives an in-memory database (tests), served on a socket under `socketDir`.
 */
export async function openEmbedded(options: {
  dataDir?: string;
  socketDir: string;
  /** In-memory only: start from this snapshot (`snapshot()`) instead of an empty cluster. */
  seed?: Blob;
}): Promise<EmbeddedDatabase> {
  const runDir = options.socketDir;
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  const runFile = join(runDir, 'embedded.json');

  if (options.dataDir) {
    const existing = readRunFile(runFile);
    if (existing && existing.pid !== process.pid && processAlive(existing.pid)) {
      await waitForSocket(join(existing.socketDir, `.s.PGSQL.${SOCKET_PORT}`));
      return { connection: connectionFor(existing.socketDir), owned: false, snapshot: notOwned, stop: async () => {} };
    }
    // Claim the directory. `wx` makes two processes starting at once agree on one owner.
    rmSync(runFile, { force: true });
    try {
      writeFileSync(runFile, JSON.stringify({ pid: process.pid, socketDir: runDir }), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const winner = readRunFile(runFile);
      if (winner && processAlive(winner.pid)) {
        await waitForSocket(join(winner.socketDir, `.s.PGSQL.${SOCKET_PORT}`));
        return { connection: connectionFor(winner.socketDir), owned: false, snapshot: notOwned, stop: async () => {} };
      }
      throw error;
    }
  }

  const socketPath = join(runDir, `.s.PGSQL.${SOCKET_PORT}`);
  if (socketPath.length > 100) {
    throw new Error(`DATA_DIR path is too long for a unix socket (${socketPath.length} > 100 characters)`);
  }
  rmSync(socketPath, { force: true });
  const db = options.dataDir
    ? await openOnDisk(join(options.dataDir, 'pgdata'))
    : await PGlite.create(options.seed ? { loadDataDir: options.seed } : {});
  const server = new PGliteServer(db, (error) => process.emitWarning(`embedded database connection: ${String(error)}`));
  await server.listen(socketPath);

  return {
    connection: connectionFor(runDir),
    owned: true,
    snapshot: async () => (await db.dumpDataDir('none')) as Blob,
    onNotification: (channel, listener) => server.onNotification(channel, listener),
    async stop() {
      await server.close();
      await db.close();
      rmSync(socketPath, { force: true });
      if (options.dataDir) {
        const current = readRunFile(runFile);
        if (current?.pid === process.pid) rmSync(runFile, { force: true });
      }
    },
  };
}

/**
 * Creates a cluster in `dir` (initdb) in a child process and returns once it is there. Creating one
 * grows the database's memory (WebAssembly memory, which is never given back while the instance lives,
 * and only some time after it is closed) to about 650 MB; in a process of its own, that memory goes
 * with the process, and the server opens the new cluster in a fresh instance of about 250 MB.
 */
async function createCluster(dir: string): Promise<void> {
  const script = [
    'const [module, dir, params] = process.argv.slice(1);',
    'const { PGlite } = await import(module);',
    'await (await PGlite.create(dir, { startParams: JSON.parse(params) })).close();',
  ].join('\n');
  const module = import.meta.resolve('@electric-sql/pglite');
  const args = ['--input-type=module', '-e', script, module, dir, JSON.stringify(ON_DISK_START_PARAMS)];
  await new Promise<void>((resolve, reject) => {
    execFile(process.execPath, args, (error, _stdout, stderr) =>
      error ? reject(new Error(`creating the embedded database failed: ${stderr || error.message}`)) : resolve(),
    );
  });
}

/** The cluster in `dir`, created there first when it is not. */
async function openOnDisk(dir: string): Promise<PGlite> {
  if (!existsSync(join(dir, 'PG_VERSION'))) await createCluster(dir);
  return PGlite.create(dir, { startParams: ON_DISK_START_PARAMS });
}

async function waitForSocket(path: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (existsSync(path)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the embedded database socket ${path} did not appear`);
}
