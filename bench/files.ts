/**
 * File transfer benchmark: `npm run bench:files` (`npm run bench:files -- --size 1GiB` for the 1 GiB run;
 * `BENCH_FILES_MIB` also sets the size).
 *
 * Starts the built server (`tessera serve`, local-disk storage under a temporary DATA_DIR) and, on the
 * same disk in the same run:
 *
 * 1. `cp` of a file of `--size` (default 256 MiB) of random bytes, then `sync` of the copy: the baseline;
 * 2. an upload of the same file through the Files API: `POST /v1/files/`, its parts (64 MiB, four at
 *    a time) PUT to the returned URLs, `POST /v1/files/{id}/uploaded` (which returns once the file is
 *    flushed to the disk);
 * 3. its download through the signed storage link the portal's downloadables redirect to, written to
 *    disk and flushed.
 *
 * Each step is timed until its bytes are on the disk, and starts after a `sync` with nothing left to
 * write from the step before. Timing a copy only until it sits in the page cache measures memory, not
 * the disk: on this machine `cp` alone measured anywhere from 400 to 4,000 MiB/s for the same file,
 * depending on how many dirty pages the steps before it had left.
 *
 * 4. the same upload and download against a bare `node:http` server in its own process (no framework, no
 *    database, no signature checks: each part written to the file at its offset and flushed, the file
 *    streamed back): what HTTP over loopback costs on this machine, the ceiling any Node server meets.
 *
 * Reports each throughput and its ratio to `cp`, and the server's peak RSS above its idle RSS
 * (sampled from /proc every 20 ms). Fails when a ratio is under 70 % or the growth over 150 MB, or
 * when the downloaded file differs from the source.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { signDownload, signingKeyOf } from '../apps/api/src/platform/storage/signed-url.js';
import { ensureBuilt, freePort, runCli, startServer, stopChildren, waitReady, serverEnv } from './server.js';

const MiB = 1024 * 1024;

/** `--size 1GiB`, `--size=512MiB` or `--size 64` (MiB); else BENCH_FILES_MIB; else 256 MiB. */
function sizeInMiB(argv: string[]): number {
  const index = argv.findIndex((arg) => arg === '--size' || arg.startsWith('--size='));
  const text =
    index < 0 ? process.env.BENCH_FILES_MIB : argv[index]!.includes('=') ? argv[index]!.slice(7) : argv[index + 1];
  if (text === undefined) return 256;
  const match = /^(\d+)\s*(MiB|GiB)?$/i.exec(text.trim());
  const value = match ? Number(match[1]) * (match[2]?.toLowerCase() === 'gib' ? 1024 : 1) : Number.NaN;
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--size must be a number of MiB or GiB (256, 512MiB, 1GiB), not ${text}`);
  return value;
}

const SIZE_MIB = sizeInMiB(process.argv.slice(2));
const SIZE = SIZE_MIB * MiB;
const PART = 64 * MiB;
const PARALLEL = 4;
const MIN_RATIO = 0.7;
const MAX_RSS_GROWTH = 150 * 1000 * 1000;

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kib * 1024;
}

async function writeRandomFile(path: string, size: number): Promise<void> {
  const out = createWriteStream(path);
  const block = randomBytes(4 * MiB);
  for (let written = 0; written < size; written += block.length) {
    const chunk = block.subarray(0, Math.min(block.length, size - written));
    // A different first byte per block: no two blocks alike.
    chunk[0] = (written / block.length) & 0xff;
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

function putPart(url: string, headers: Record<string, string>, path: string, start: number, end: number) {
  return new Promise<string>((resolve, reject) => {
    const req = request(
      url,
      { method: 'PUT', headers: { ...headers, 'content-length': String(end - start) } },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve(String(res.headers.etag)) : reject(new Error(`part: ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    if (end === start) return req.end();
    pipeline(createReadStream(path, { start, end: end - 1, highWaterMark: MiB }), req).catch(reject);
  });
}

/**
 * The bare server: PUT /<offset> writes the body at that offset of `file` and flushes it (as local-disk
 * storage does); GET / streams the file back. Prints its port when listening.
 */
const BARE_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const { pipeline } = require('node:stream/promises');
const file = process.argv[1];
fs.closeSync(fs.openSync(file, 'w'));
http
  .createServer(async (req, res) => {
    try {
      if (req.method === 'PUT') {
        const out = fs.createWriteStream(file, { flags: 'r+', start: Number(req.url.slice(1)), highWaterMark: 1 << 20, flush: true });
        await pipeline(req, out);
        res.end('ok');
      } else {
        await pipeline(fs.createReadStream(file, { highWaterMark: 1 << 20 }), res);
      }
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
  })
  .listen(0, '127.0.0.1', function () {
    process.stdout.write(String(this.address().port) + '\\n');
  });
`;

/** Upload (parts at their offsets, PARALLEL at a time, then an fsync of the file) and download to disk. */
async function bareTransfer(source: string, dir: string): Promise<{ upload: number; download: number }> {
  const stored = join(dir, 'bare-stored.bin');
  const child = spawn(process.execPath, ['-e', BARE_SERVER, stored], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (data: Buffer) => resolve(Number(data.toString().trim())));
      child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
    });
    spawnSync('sync');
    const uploadStart = performance.now();
    const queue: number[] = [];
    for (let start = 0; start < SIZE; start += PART) queue.push(start);
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (let start = queue.shift(); start !== undefined; start = queue.shift()) {
          await putPart(`http://127.0.0.1:${port}/${start}`, {}, source, start, Math.min(SIZE, start + PART));
        }
      }),
    );
    spawnSync('sync', [stored]);
    const upload = (performance.now() - uploadStart) / 1000;
    const target = join(dir, 'bare-downloaded.bin');
    spawnSync('sync');
    const downloadStart = performance.now();
    await new Promise<void>((resolve, reject) => {
      request(`http://127.0.0.1:${port}/`, (res) => {
        pipeline(res, createWriteStream(target, { highWaterMark: MiB, flush: true })).then(resolve, reject);
      })
        .on('error', reject)
        .end();
    });
    const download = (performance.now() - downloadStart) / 1000;
    rmSync(stored);
    rmSync(target);
    return { upload, download };
  } finally {
    child.kill();
  }
}

async function main(): Promise<void> {
  await ensureBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-files-'));
  const secret = randomBytes(32).toString('base64url');
  const port = await freePort();
  const env = serverEnv({ mode: 'development', port, dataDir, secret });
  const server = startServer(env, port);
  try {
    // A loaded machine may take a while to open the embedded database and migrate it.
    await waitReady(server, 180_000);
    const created = JSON.parse(
      await runCli(['org', 'create', '--name', 'Bench', '--slug', `bench-files-${port}`, '--json'], env),
    ) as { access_token: string };
    const auth = { authorization: `Bearer ${created.access_token}`, 'content-type': 'application/json' };

    const source = join(dataDir, 'source.bin');
    await writeRandomFile(source, SIZE);

    spawnSync('sync');
    const cpStart = performance.now();
    const cp = spawnSync('cp', [source, join(dataDir, 'copy.bin')]);
    if (cp.status !== 0) throw new Error(`cp failed: ${cp.stderr.toString()}`);
    spawnSync('sync', [join(dataDir, 'copy.bin')]);
    const cpSeconds = (performance.now() - cpStart) / 1000;
    rmSync(join(dataDir, 'copy.bin'));

    const pid = server.pid!;
    const idle = rssOf(pid);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);

    spawnSync('sync');
    const uploadStart = performance.now();
    const parts = [];
    for (let start = 0, number = 1; start < SIZE; start += PART, number++) {
      parts.push({ number, chunk_start: start, chunk_end: Math.min(SIZE, start + PART) });
    }
    const answer = await fetch(`${server.baseUrl}/v1/files/`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        name: 'bench.bin',
        mime_type: 'application/octet-stream',
        size: SIZE,
        service: 'downloadable',
        upload: { parts },
      }),
    });
    if (answer.status !== 201) throw new Error(`create: ${answer.status} ${await answer.text()}`);
    const file = (await answer.json()) as {
      id: string;
      path: string;
      upload: {
        id: string;
        path: string;
        parts: {
          number: number;
          chunk_start: number;
          chunk_end: number;
          url: string;
          headers: Record<string, string>;
        }[];
      };
    };
    const etags = new Map<number, string>();
    const queue = [...file.upload.parts];
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (let part = queue.shift(); part; part = queue.shift()) {
          etags.set(part.number, await putPart(part.url, part.headers, source, part.chunk_start, part.chunk_end));
        }
      }),
    );
    const completed = await fetch(`${server.baseUrl}/v1/files/${file.id}/uploaded`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        id: file.upload.id,
        path: file.upload.path,
        parts: file.upload.parts.map((p) => ({
          number: p.number,
          checksum_etag: etags.get(p.number),
          checksum_sha256_base64: null,
        })),
      }),
    });
    if (completed.status !== 200) throw new Error(`complete: ${completed.status} ${await completed.text()}`);
    const uploadSeconds = (performance.now() - uploadStart) / 1000;

    const expires = Math.floor(Date.now() / 1000) + 600;
    const signature = signDownload(signingKeyOf(secret), { key: file.path, expires, filename: undefined });
    const link = `${server.baseUrl}/v1/storage/download/${file.path}?expires=${expires}&signature=${signature}`;
    const target = join(dataDir, 'downloaded.bin');
    spawnSync('sync');
    const downloadStart = performance.now();
    await new Promise<void>((resolve, reject) => {
      request(link, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`download: ${res.statusCode}`));
        pipeline(res, createWriteStream(target, { highWaterMark: MiB, flush: true })).then(resolve, reject);
      })
        .on('error', reject)
        .end();
    });
    const downloadSeconds = (performance.now() - downloadStart) / 1000;
    clearInterval(sampler);
    const bare = await bareTransfer(source, dataDir);

    const same = statSync(target).size === SIZE && spawnSync('cmp', ['-s', source, target]).status === 0;
    const throughput = (seconds: number) => SIZE / MiB / seconds;
    const growth = peak - idle;
    const rows = [
      ['cp', throughput(cpSeconds), 1],
      ['upload', throughput(uploadSeconds), cpSeconds / uploadSeconds],
      ['download', throughput(downloadSeconds), cpSeconds / downloadSeconds],
    ] as const;
    const bareRows = [
      ['bare up', throughput(bare.upload), cpSeconds / bare.upload],
      ['bare down', throughput(bare.download), cpSeconds / bare.download],
    ] as const;
    console.log(`file: ${SIZE_MIB} MiB, parts of ${PART / MiB} MiB, ${PARALLEL} at a time`);
    for (const [name, mibs, ratio] of rows) {
      console.log(
        `${name.padEnd(9)} ${mibs.toFixed(1).padStart(8)} MiB/s   ${(ratio * 100).toFixed(0).padStart(4)} % of cp`,
      );
    }
    console.log('the same transfers against a bare node:http server (the ceiling of HTTP over loopback here):');
    for (const [name, mibs, ratio] of bareRows) {
      console.log(
        `${name.padEnd(9)} ${mibs.toFixed(1).padStart(8)} MiB/s   ${(ratio * 100).toFixed(0).padStart(4)} % of cp`,
      );
    }
    console.log(
      `Tessera against the bare server: upload ${((100 * bare.upload) / uploadSeconds).toFixed(0)} %, ` +
        `download ${((100 * bare.download) / downloadSeconds).toFixed(0)} %`,
    );
    console.log(
      `server RSS: idle ${(idle / 1e6).toFixed(0)} MB, peak ${(peak / 1e6).toFixed(0)} MB, growth ${(growth / 1e6).toFixed(0)} MB`,
    );
    console.log(`downloaded file identical: ${same}`);
    // cp is mostly the kernel's work, the transfers need CPU time: on a busy machine the ratios fall.
    console.log(`load average (1 min): ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs`);
    const failures = [
      ...rows.filter(([, , ratio]) => ratio < MIN_RATIO).map(([name]) => `${name} under ${MIN_RATIO * 100} % of cp`),
      ...(growth > MAX_RSS_GROWTH ? [`RSS grew ${(growth / 1e6).toFixed(0)} MB`] : []),
      ...(same ? [] : ['the downloaded file differs']),
    ];
    if (failures.length > 0) {
      console.error(`FAILED: ${failures.join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    await server.stop();
    await stopChildren();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
