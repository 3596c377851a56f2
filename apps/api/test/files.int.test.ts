import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueRevocationsForOrder } from '../src/modules/benefit-grants/benefit-grants.service.js';
import { cleanAbandonedUploads } from '../src/modules/files/files.cleanup.js';
import { ManualClock } from '../src/platform/clock.js';
import { linkExpiry, objectStorage } from '../src/platform/storage/index.js';
import type { S3Config } from '../src/config.js';
import { inTransaction, purchaseFactory, typedBenefitFactory, waitForGrant } from './factories/benefit-grants.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';
import { startFakeS3, type FakeS3 } from './support/fake-s3.js';

const MiB = 1024 * 1024;
/** Random bytes behind a PNG signature: what an image upload's content is checked for. */
const pngBytes = (size: number) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(size)]);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');

interface PartPlan {
  number: number;
  chunk_start: number;
  chunk_end: number;
  checksum_sha256_base64?: string | null;
}

/** Parts of `partSize` bytes (the last one the rest), with their checksums unless told not to. */
function planParts(bytes: Buffer, partSize: number, checksums = true): PartPlan[] {
  const parts: PartPlan[] = [];
  for (let start = 0, number = 1; start < bytes.length || number === 1; start += partSize, number++) {
    const end = Math.min(bytes.length, start + partSize);
    parts.push({
      number,
      chunk_start: start,
      chunk_end: end,
      ...(checksums ? { checksum_sha256_base64: sha256(bytes.subarray(start, end)) } : {}),
    });
    if (end >= bytes.length) break;
  }
  return parts;
}

/** The bytes of a file cut at `sizes` (the last slice the rest). */
function sliceBytes(bytes: Buffer, sizes: number[]): Buffer[] {
  const slices: Buffer[] = [];
  let start = 0;
  for (const size of sizes) {
    slices.push(bytes.subarray(start, start + size));
    start += size;
  }
  if (start < bytes.length || slices.length === 0) slices.push(bytes.subarray(start));
  return slices;
}

/** Parts of these slices declared with `range(start, length)` as their chunk_start and chunk_end. */
function declareParts(slices: Buffer[], range: (start: number, length: number) => [number, number]): PartPlan[] {
  let start = 0;
  return slices.map((slice, index) => {
    const [chunk_start, chunk_end] = range(start, slice.length);
    start += slice.length;
    return { number: index + 1, chunk_start, chunk_end, checksum_sha256_base64: sha256(slice) };
  });
}

describe.each(['local', 's3'] as const)('files on the %s backend', (backend) => {
  let server: TestServer;
  let s3: FakeS3 | undefined;
  let acme: OrganizationFixture;
  let other: OrganizationFixture;
  const clock = new ManualClock(new Date(Math.floor(Date.now() / 1000) * 1000));

  beforeAll(async () => {
    let s3Config: S3Config | undefined;
    if (backend === 's3') {
      s3 = await startFakeS3({
        publicBuckets: ['public-files'],
        credentials: { accessKeyId: 'test-access-key', secretAccessKey: 'test-secret-key' },
      });
      s3Config = {
        endpoint: s3.url,
        bucket: 'files',
        publicBucket: 'public-files',
        region: 'us-east-1',
        accessKeyId: 'test-access-key',
        secretAccessKey: 'test-secret-key',
        forcePathStyle: true,
      };
    }
    server = await startTestServer({ listen: true, clock, config: { s3: s3Config } });
    acme = await organizationFactory(server);
    other = await organizationFactory(server);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await s3?.stop();
  });

  /** The server's own links name its base URL without the test port. */
  const reach = (url: string) => url.replace(/^http:\/\/127\.0\.0\.1(?=\/)/, server.url);

  const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token?: string, payload?: unknown) =>
    server.inject({ method, url, headers: token ? bearer(token) : {}, payload: payload as object });

  const createBody = (bytes: Buffer, overrides: Record<string, unknown> = {}, parts = planParts(bytes, 5 * MiB)) => ({
    name: 'book.pdf',
    mime_type: 'application/pdf',
    size: bytes.length,
    service: 'downloadable',
    checksum_sha256_base64: sha256(bytes),
    upload: { parts },
    ...overrides,
  });

  /** PUTs every part through its URL with its headers; answers the ETags (in parallel, as a browser). */
  async function sendParts(upload: any, bytes: Buffer): Promise<{ number: number; etag: string; status: number }[]> {
    return Promise.all(
      upload.upload.parts.map(async (part: any) => {
        const response = await fetch(reach(part.url), {
          method: 'PUT',
          headers: part.headers,
          body: bytes.subarray(part.chunk_start, part.chunk_end),
        });
        await response.arrayBuffer();
        return { number: part.number, etag: response.headers.get('etag') ?? '', status: response.status };
      }),
    );
  }

  /** PUTs slice i to part i + 1's URL: the bytes a part carries, whatever range it was declared with. */
  async function sendSlices(
    upload: any,
    slices: Buffer[],
  ): Promise<{ number: number; etag: string; status: number }[]> {
    return Promise.all(
      upload.upload.parts.map(async (part: any, index: number) => {
        const response = await fetch(reach(part.url), { method: 'PUT', headers: part.headers, body: slices[index] });
        await response.arrayBuffer();
        return { number: part.number, etag: response.headers.get('etag') ?? '', status: response.status };
      }),
    );
  }

  /** The stored file, fetched through the storage's own signed download link (the portal's redirect). */
  async function downloadBack(path: string): Promise<Buffer> {
    const storage = objectStorage(server.config);
    const url = await storage.downloadUrl(path, { expiry: linkExpiry(clock, 600) });
    const response = await fetch(reach(url));
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  }

  /** Creates the file with these declared parts, PUTs the slices, completes it: answers the completion. */
  async function uploadSlices(bytes: Buffer, slices: Buffer[], parts: PartPlan[], overrides = {}) {
    const created = await api('POST', '/v1/files/', acme.token, createBody(bytes, overrides, parts));
    expect(created.statusCode, created.body).toBe(201);
    const upload = json(created);
    // The declared ranges are echoed as given, as the SDK expects.
    expect(
      upload.upload.parts.map((p: any) => ({
        number: p.number,
        chunk_start: p.chunk_start,
        chunk_end: p.chunk_end,
        checksum_sha256_base64: p.checksum_sha256_base64,
      })),
    ).toEqual(parts);
    const sent = await sendSlices(upload, slices);
    expect(sent.map((s) => s.status)).toEqual(sent.map(() => 200));
    const completed = await api('POST', `/v1/files/${upload.id}/uploaded`, acme.token, completeBody(upload, sent));
    return { upload, sent, completed };
  }

  const completeBody = (upload: any, sent: { number: number; etag: string }[]) => ({
    id: upload.upload.id,
    path: upload.upload.path,
    parts: sent.map(({ number, etag }) => ({
      number,
      checksum_etag: etag,
      checksum_sha256_base64: upload.upload.parts[number - 1].checksum_sha256_base64 ?? null,
    })),
  });

  async function uploadFile(org: OrganizationFixture, bytes: Buffer, overrides: Record<string, unknown> = {}) {
    const created = await api('POST', '/v1/files/', org.token, createBody(bytes, overrides));
    expect(created.statusCode, created.body).toBe(201);
    const upload = json(created);
    const sent = await sendParts(upload, bytes);
    expect(sent.map((s) => s.status)).toEqual(sent.map(() => 200));
    const completed = await api('POST', `/v1/files/${upload.id}/uploaded`, org.token, completeBody(upload, sent));
    expect(completed.statusCode, completed.body).toBe(200);
    return json(completed);
  }

  const countFiles = async () =>
    Number(
      (
        await server.runtime.database.db
          .selectFrom('files')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** Multipart uploads the storage holds: none is started for a refused request. */
  const pendingUploads = () => {
    if (s3) return s3.uploads.size;
    const directory = join(server.config.dataDir, 'storage', '.uploads');
    return existsSync(directory) ? readdirSync(directory).length : 0;
  };

  async function sessionFor(customerId: string, org = acme): Promise<string> {
    const response = await api('POST', '/v1/customer-sessions/', org.token, { customer_id: customerId });
    expect(response.statusCode).toBe(201);
    return json(response).token;
  }

  it('a 20 MiB file in 4 parts goes up through the returned URLs and comes back byte-identical', async () => {
    const bytes = randomBytes(20 * MiB);
    const created = await api('POST', '/v1/files/', acme.token, createBody(bytes));
    expect(created.statusCode, created.body).toBe(201);
    const upload = json(created);
    expect(upload).toMatchObject({
      organization_id: acme.organization.id,
      name: 'book.pdf',
      size: 20 * MiB,
      size_readable: '20.0 MB',
      is_uploaded: false,
      service: 'downloadable',
      checksum_sha256_hex: Buffer.from(sha256(bytes), 'base64').toString('hex'),
    });
    expect(upload.path).toBe(`downloadable/${acme.organization.id}/${upload.id}/book.pdf`);
    expect(upload.upload.parts).toHaveLength(4);
    expect(upload.upload.parts[0].headers).toEqual({
      'x-amz-checksum-sha256': upload.upload.parts[0].checksum_sha256_base64,
      'x-amz-sdk-checksum-algorithm': 'SHA256',
    });
    // Not listed until completed.
    expect(json(await api('GET', `/v1/files/?ids=${upload.id}`, acme.token)).items).toEqual([]);

    const sent = await sendParts(upload, bytes);
    expect(sent.every((s) => s.status === 200 && s.etag)).toBe(true);
    const completed = await api('POST', `/v1/files/${upload.id}/uploaded`, acme.token, completeBody(upload, sent));
    expect(completed.statusCode, completed.body).toBe(200);
    expect(json(completed)).toMatchObject({ id: upload.id, is_uploaded: true, service: 'downloadable' });
    expect(json(completed).checksum_etag).toBeTruthy();
    expect(json(completed).public_url).toBeUndefined();
    const listed = json(await api('GET', `/v1/files/?ids=${upload.id}`, acme.token));
    expect(listed.items.map((f: any) => f.id)).toEqual([upload.id]);

    // Completing again is refused, and changes nothing.
    const again = await api('POST', `/v1/files/${upload.id}/uploaded`, acme.token, completeBody(upload, sent));
    expect(again.statusCode).toBe(400);

    // The buyer of a downloadables benefit gets it from the portal.
    const benefit = await typedBenefitFactory(server, acme.organization.id, 'downloadables', {
      archived: {},
      files: [upload.id],
    });
    const purchase = await purchaseFactory(server, acme, [benefit.id]);
    await waitForGrant(server, purchase.customerId, benefit.id, (g) => g.granted_at !== null);
    const session = await sessionFor(purchase.customerId);
    const downloads = await api('GET', '/v1/customer-portal/downloadables/', session);
    expect(downloads.statusCode, downloads.body).toBe(200);
    const [item] = json(downloads).items;
    expect(item).toMatchObject({ benefit_id: benefit.id, file: { id: upload.id, name: 'book.pdf', size: 20 * MiB } });
    const tokenPath = new URL(item.file.download.url).pathname;
    const redirect = await server.inject({ method: 'GET', url: tokenPath });
    expect(redirect.statusCode).toBe(302);
    const body = Buffer.from(await (await fetch(reach(redirect.headers.location as string))).arrayBuffer());
    expect(body.length).toBe(bytes.length);
    expect(body.equals(bytes)).toBe(true);
    const row = await server.runtime.database.db
      .selectFrom('downloadables')
      .selectAll()
      .where('id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(row.downloaded).toBe(1);

    // Another customer sees none of it; a changed token is 404, a malformed one 400, an old one 410.
    const stranger = await purchaseFactory(server, acme, []);
    const theirs = await api('GET', '/v1/customer-portal/downloadables/', await sessionFor(stranger.customerId));
    expect(json(theirs).items).toEqual([]);
    const token = tokenPath.split('/').pop()!;
    const [payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ id: randomUUID(), exp: 4_000_000_000 })).toString('base64url');
    expect(
      (await server.inject({ method: 'GET', url: `/v1/customer-portal/downloadables/${forged}.${signature}` }))
        .statusCode,
    ).toBe(404);
    expect(
      (await server.inject({ method: 'GET', url: `/v1/customer-portal/downloadables/${payload}` })).statusCode,
    ).toBe(400);
    clock.advance(601_000);
    const expired = await server.inject({ method: 'GET', url: tokenPath });
    expect(expired.statusCode).toBe(410);
    expect(json(expired).error).toBe('ResourceUnavailable');
    // The storage's own download link expires too (on S3, S3 refuses it by its own clock).
    if (backend === 'local') {
      expect((await fetch(reach(redirect.headers.location as string))).status).toBe(410);
    }

    // Revocation: no new links.
    await inTransaction(server, (ctx) => enqueueRevocationsForOrder(ctx, purchase.orderId));
    await waitForGrant(server, purchase.customerId, benefit.id, (g) => g.revoked_at !== null);
    expect(json(await api('GET', '/v1/customer-portal/downloadables/', session)).items).toEqual([]);
  }, 120_000);

  it('parts declared with inclusive ends (the last ending at size - 1) go up and come back byte for byte', async () => {
    const bytes = randomBytes(11 * MiB + 123);
    const slices = sliceBytes(bytes, [5 * MiB, 5 * MiB]);
    const parts = declareParts(slices, (start, length) => [start, start + length - 1]);
    expect(parts.at(-1)!.chunk_end).toBe(bytes.length - 1);
    const { upload, completed } = await uploadSlices(bytes, slices, parts);
    expect(completed.statusCode, completed.body).toBe(200);
    expect(json(completed)).toMatchObject({ id: upload.id, is_uploaded: true, size: bytes.length });
    expect((await downloadBack(upload.path)).equals(bytes)).toBe(true);
  }, 60_000);

  it('a small file in one part declared 0..size-1 goes up and comes back byte for byte', async () => {
    const bytes = randomBytes(1000);
    const parts = [{ number: 1, chunk_start: 0, chunk_end: 999, checksum_sha256_base64: sha256(bytes) }];
    const { upload, completed } = await uploadSlices(bytes, [bytes], parts, { name: 'small.bin' });
    expect(completed.statusCode, completed.body).toBe(200);
    expect((await downloadBack(upload.path)).equals(bytes)).toBe(true);
  });

  it('arbitrary declared ranges (every part 0..0): the bytes PUT make the file', async () => {
    const bytes = randomBytes(12 * MiB + 7);
    const slices = sliceBytes(bytes, [6 * MiB, 5 * MiB]);
    const parts = declareParts(slices, () => [0, 0]);
    const { upload, completed } = await uploadSlices(bytes, slices, parts);
    expect(completed.statusCode, completed.body).toBe(200);
    expect(json(completed).size).toBe(bytes.length);
    expect((await downloadBack(upload.path)).equals(bytes)).toBe(true);
  }, 60_000);

  it('an empty file in one empty part, declared 0..0', async () => {
    const bytes = Buffer.alloc(0);
    const parts = [{ number: 1, chunk_start: 0, chunk_end: 0, checksum_sha256_base64: sha256(bytes) }];
    const { upload, completed } = await uploadSlices(bytes, [bytes], parts, { name: 'empty.txt' });
    expect(completed.statusCode, completed.body).toBe(200);
    expect(await downloadBack(upload.path)).toHaveLength(0);
  });

  it('the bytes decide at completion: another total size or a small part before the last is 400, the file stays not uploaded, and a part sent again completes it', async () => {
    const isUploaded = async (id: string) =>
      (
        await server.runtime.database.db
          .selectFrom('files')
          .select('is_uploaded')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).is_uploaded;

    // One byte short of the declared size, then the part sent again whole.
    const bytes = randomBytes(1000);
    const plan = [{ number: 1, chunk_start: 0, chunk_end: 1000 }];
    const created = json(
      await api('POST', '/v1/files/', acme.token, createBody(bytes, { checksum_sha256_base64: null }, plan)),
    );
    const short = await sendSlices(created, [bytes.subarray(0, 999)]);
    expect(short[0]!.status).toBe(200);
    const refused = await api('POST', `/v1/files/${created.id}/uploaded`, acme.token, completeBody(created, short));
    expect(refused.statusCode, refused.body).toBe(400);
    expect(json(refused).detail).toBe('The parts have 999 bytes; the file was declared with 1000.');
    expect(await isUploaded(created.id)).toBe(false);
    const whole = await sendSlices(created, [bytes]);
    const completed = await api('POST', `/v1/files/${created.id}/uploaded`, acme.token, completeBody(created, whole));
    expect(completed.statusCode, completed.body).toBe(200);
    expect((await downloadBack(created.path)).equals(bytes)).toBe(true);

    // More bytes than declared.
    const loose = json(
      await api('POST', '/v1/files/', acme.token, createBody(bytes, { checksum_sha256_base64: null }, plan)),
    );
    const tooMany = await sendSlices(loose, [Buffer.concat([bytes, bytes])]);
    expect(tooMany[0]!.status).toBe(200);
    const over = await api('POST', `/v1/files/${loose.id}/uploaded`, acme.token, completeBody(loose, tooMany));
    expect(over.statusCode).toBe(400);
    expect(await isUploaded(loose.id)).toBe(false);

    // A first part under 5 MiB: S3's EntityTooSmall, on both backends.
    const six = randomBytes(6 * MiB);
    const slices = sliceBytes(six, [1 * MiB]);
    const small = json(
      await api(
        'POST',
        '/v1/files/',
        acme.token,
        createBody(
          six,
          {},
          declareParts(slices, (start, length) => [start, start + length]),
        ),
      ),
    );
    const sent = await sendSlices(small, slices);
    expect(sent.map((s) => s.status)).toEqual([200, 200]);
    const tooSmall = await api('POST', `/v1/files/${small.id}/uploaded`, acme.token, completeBody(small, sent));
    expect(tooSmall.statusCode).toBe(400);
    expect(json(tooSmall).detail).toContain('EntityTooSmall');
    expect(await isUploaded(small.id)).toBe(false);
  }, 60_000);

  it.runIf(backend === 'local')('a part announcing more than 5 GiB is refused before its body is read', async () => {
    const created = json(await api('POST', '/v1/files/', acme.token, createBody(randomBytes(10))));
    const url = new URL(reach(created.upload.parts[0].url));
    const status = await new Promise<number>((resolve, reject) => {
      const put = httpRequest(
        url,
        { method: 'PUT', headers: { 'content-length': String(5 * 1024 ** 3 + 1) } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          put.destroy();
        },
      );
      put.on('error', reject);
      put.write(Buffer.alloc(1024));
    });
    expect(status).toBe(400);
  });

  it('the auth matrix of every route', async () => {
    const bytes = Buffer.from('hello');
    const file = await uploadFile(acme, bytes, { name: 'hello.txt', mime_type: 'text/plain' });
    const readOnly = await tokenFactory(server, acme.organization.id, ['files:read']);
    const none = await tokenFactory(server, acme.organization.id, ['products:read']);
    const create = createBody(bytes);
    const complete = { id: 'x', path: 'x', parts: [{ number: 1, checksum_etag: 'x', checksum_sha256_base64: null }] };
    const routes: [method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, write?: boolean][] = [
      ['GET', '/v1/files/'],
      ['POST', '/v1/files/', create, true],
      ['POST', `/v1/files/${file.id}/uploaded`, complete, true],
      ['PATCH', `/v1/files/${file.id}`, { name: 'x.txt' }, true],
      ['DELETE', `/v1/files/${file.id}`, undefined, true],
    ];
    for (const [method, url, payload, write] of routes) {
      expect((await api(method, url, undefined, payload)).statusCode, `${method} ${url}`).toBe(401);
      expect((await api(method, url, none, payload)).statusCode, `${method} ${url}`).toBe(403);
      if (write) expect((await api(method, url, readOnly, payload)).statusCode, `${method} ${url}`).toBe(403);
    }
    // Another organization: not found, and its list does not show it.
    for (const [method, url, payload] of routes.slice(2)) {
      expect((await api(method, url, other.token, payload)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect(json(await api('GET', `/v1/files/?ids=${file.id}`, other.token)).items).toEqual([]);
    // Bad bodies: 422 and nothing stored.
    const filesBefore = await countFiles();
    for (const body of [
      {},
      { ...create, service: 'other' },
      { ...create, size: -1 },
      { ...create, upload: { parts: [] } },
    ]) {
      expect((await api('POST', '/v1/files/', acme.token, body)).statusCode).toBe(422);
    }
    expect(await countFiles()).toBe(filesBefore);
    expect((await api('POST', `/v1/files/${file.id}/uploaded`, acme.token, { id: 1 })).statusCode).toBe(422);
    expect((await api('PATCH', `/v1/files/${file.id}`, acme.token, { name: 5 })).statusCode).toBe(422);
    // A bad query: 422, and the database is free for the next write at once.
    for (const query of ['limit=0', 'ids=not-a-uuid', 'page=-1', 'organization_id=x']) {
      const refused = await api('GET', `/v1/files/?${query}`, acme.token);
      expect(refused.statusCode, query).toBe(422);
      expect(json(refused).detail[0].loc[0]).toBe('query');
    }
    const renamed = await api('PATCH', `/v1/files/${file.id}`, acme.token, { name: 'after-422.txt' });
    expect(renamed.statusCode).toBe(200);
    // The portal routes: a customer session is required; a bad query is 422.
    expect((await api('GET', '/v1/customer-portal/downloadables/')).statusCode).toBe(401);
    expect((await api('GET', '/v1/customer-portal/downloadables/', acme.token)).statusCode).toBe(401);
    const buyer = await purchaseFactory(server, acme, []);
    const session = await sessionFor(buyer.customerId);
    for (const query of ['limit=101', 'benefit_id=x']) {
      expect((await api('GET', `/v1/customer-portal/downloadables/?${query}`, session)).statusCode, query).toBe(422);
    }
  });

  it('PATCH renames (empty values ignored), DELETE removes the object', async () => {
    const file = await uploadFile(acme, Buffer.from('some bytes'), {
      name: 'a.bin',
      mime_type: 'application/octet-stream',
    });
    const renamed = await api('PATCH', `/v1/files/${file.id}`, acme.token, { name: 'b.bin', version: '2' });
    expect(renamed.statusCode).toBe(200);
    expect(json(renamed)).toMatchObject({ name: 'b.bin', version: '2', path: file.path });
    const unchanged = await api('PATCH', `/v1/files/${file.id}`, acme.token, { name: '', version: null });
    expect(json(unchanged)).toMatchObject({ name: 'b.bin', version: '2' });
    expect((await api('PATCH', `/v1/files/${file.id}`, acme.token, { name: '../x' })).statusCode).toBe(422);
    const deleted = await api('DELETE', `/v1/files/${file.id}`, acme.token);
    expect(deleted.statusCode).toBe(204);
    expect((await api('DELETE', `/v1/files/${file.id}`, acme.token)).statusCode).toBe(404);
    expect(json(await api('GET', `/v1/files/?ids=${file.id}`, acme.token)).items).toEqual([]);
    if (s3) expect([...s3.objects.keys()].some((key) => key.endsWith(file.path))).toBe(false);
    else expect(existsSync(join(server.config.dataDir, 'storage', ...file.path.split('/')))).toBe(false);
  });

  it('refuses bad names and badly numbered parts with 422, storing nothing', async () => {
    const bytes = randomBytes(11 * MiB);
    const filesBefore = await countFiles();
    const uploadsBefore = pendingUploads();
    const names = ['../../etc/passwd', 'a\u0000b.pdf', 'x'.repeat(256), '..', ''];
    for (const name of names) {
      const response = await api('POST', '/v1/files/', acme.token, createBody(bytes, { name }));
      expect(response.statusCode, JSON.stringify(name)).toBe(422);
    }
    // Part numbers 1…n in order are all that is checked of the declared parts; their ranges decide nothing.
    const numbered = (numbers: number[]) => numbers.map((number) => ({ number, chunk_start: 0, chunk_end: 0 }));
    for (const parts of [numbered([2, 1]), numbered([1, 3]), numbered([1, 1]), numbered([0])]) {
      const response = await api('POST', '/v1/files/', acme.token, createBody(bytes, {}, parts));
      expect(response.statusCode, JSON.stringify(parts)).toBe(422);
      expect(json(response).detail[0].loc).toEqual(expect.arrayContaining(['body', 'upload', 'parts']));
    }
    // Media and avatars: images only, within their sizes.
    const image = { name: 'a.png', mime_type: 'image/png', service: 'product_media' };
    expect(
      (await api('POST', '/v1/files/', acme.token, createBody(bytes, { ...image, mime_type: 'text/html' }))).statusCode,
    ).toBe(422);
    expect(
      (await api('POST', '/v1/files/', acme.token, createBody(bytes, { ...image, service: 'organization_avatar' })))
        .statusCode,
    ).toBe(422);
    expect(await countFiles()).toBe(filesBefore);
    expect(pendingUploads()).toBe(uploadsBefore);
  });

  it('a part not matching its checksum, or a wrong whole-file SHA-256: 4xx, the file stays not uploaded', async () => {
    const bytes = randomBytes(1000);
    // A part whose body is not its declared checksum.
    const created = json(await api('POST', '/v1/files/', acme.token, createBody(bytes)));
    const part = created.upload.parts[0];
    const tampered = Buffer.from(bytes);
    tampered[0] = tampered[0]! ^ 1;
    const badDigest = await fetch(reach(part.url), { method: 'PUT', headers: part.headers, body: tampered });
    expect(badDigest.status).toBe(400);
    const unsent = await api(
      'POST',
      `/v1/files/${created.id}/uploaded`,
      acme.token,
      completeBody(created, [{ number: 1, etag: badDigest.headers.get('etag') ?? '"none"' }]),
    );
    expect(unsent.statusCode).toBe(400);
    // The right parts but another whole-file checksum.
    const wrongWhole = json(
      await api(
        'POST',
        '/v1/files/',
        acme.token,
        createBody(bytes, { checksum_sha256_base64: sha256(Buffer.from('other')) }),
      ),
    );
    const sent = await sendParts(wrongWhole, bytes);
    const mismatch = await api(
      'POST',
      `/v1/files/${wrongWhole.id}/uploaded`,
      acme.token,
      completeBody(wrongWhole, sent),
    );
    expect(mismatch.statusCode).toBe(400);
    expect(json(mismatch).error).toBe('BadRequest');
    const rows = await server.runtime.database.db
      .selectFrom('files')
      .select(['id', 'is_uploaded'])
      .where('id', 'in', [created.id, wrongWhole.id])
      .execute();
    expect(rows.every((row) => !row.is_uploaded)).toBe(true);
    // Reporting other parts than declared: 422.
    const partsMismatch = await api('POST', `/v1/files/${wrongWhole.id}/uploaded`, acme.token, {
      ...completeBody(wrongWhole, sent),
      parts: [],
    });
    expect(partsMismatch.statusCode).toBe(422);
  });

  it.runIf(backend === 'local')('expired or altered part upload URLs are refused', async () => {
    const bytes = randomBytes(100);
    const created = json(await api('POST', '/v1/files/', acme.token, createBody(bytes)));
    const part = created.upload.parts[0];
    const altered = reach(part.url).replace(/\/1\?/, '/2?');
    expect(altered).not.toBe(reach(part.url));
    expect((await fetch(altered, { method: 'PUT', headers: part.headers, body: bytes })).status).toBe(403);
    clock.advance(601_000);
    const late = await fetch(reach(part.url), { method: 'PUT', headers: part.headers, body: bytes });
    expect(late.status).toBe(410);
  });

  it('links last the configured time on the server clock, whatever the organization test clock says', async () => {
    // An organization whose test clock is 8 days ahead: a link is still checked against the server clock (local
    // disk) or real time (S3), so it must expire 600 s after it is issued. S3 refuses to presign more than 7 days.
    const ahead = await organizationFactory(server);
    const moved = await api('POST', '/v1/test-clock/advance', ahead.token, { days: 8 });
    expect(moved.statusCode).toBe(200);
    const bytes = randomBytes(100);
    const response = await api('POST', '/v1/files/', ahead.token, createBody(bytes));
    expect(response.statusCode).toBe(201);
    const part = json(response).upload.parts[0];
    const url = new URL(reach(part.url));
    if (backend === 's3') expect(url.searchParams.get('X-Amz-Expires')).toBe('600');
    else expect(Number(url.searchParams.get('expires')) * 1000).toBe(clock.now().getTime() + 600_000);
    expect((await fetch(url, { method: 'PUT', headers: part.headers, body: bytes })).status).toBe(200);
  });

  it('an organization avatar sets avatar_url to its public URL, served to anyone', async () => {
    const png = pngBytes(2048);
    const file = await uploadFile(acme, png, {
      name: 'logo.png',
      mime_type: 'image/png',
      service: 'organization_avatar',
    });
    expect(file.public_url).toBeTruthy();
    const organization = json(await api('GET', `/v1/organizations/${acme.organization.id}`, acme.token));
    expect(organization.avatar_url).toBe(file.public_url);
    const served = await fetch(reach(file.public_url));
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    if (s3) expect(file.public_url).toBe(`${s3.url}/public-files/${file.path}`);

    // A mime type that lies: refused at completion, nothing kept.
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const lying = json(
      await api(
        'POST',
        '/v1/files/',
        acme.token,
        createBody(html, { name: 'x.png', mime_type: 'image/png', service: 'product_media' }),
      ),
    );
    const sent = await sendParts(lying, html);
    const refused = await api('POST', `/v1/files/${lying.id}/uploaded`, acme.token, completeBody(lying, sent));
    expect(refused.statusCode).toBe(400);
    expect(json(refused).detail).toBe("The file's content is not image/png.");
    if (s3) expect([...s3.objects.keys()].some((key) => key.endsWith(lying.upload.path))).toBe(false);
    expect(
      (await fetch(reach(lying.upload.path.replace(/^/, `${server.config.baseUrl}/v1/storage/public/`)))).status,
    ).toBe(404);
  });

  it('product medias: uploaded images of the organization, in the order given, shown in the checkout', async () => {
    const image = (name: string) => ({ name, mime_type: 'image/png', service: 'product_media' });
    const a = await uploadFile(acme, pngBytes(300), image('a.png'));
    const b = await uploadFile(acme, pngBytes(400), image('b.png'));
    expect(a.public_url).toBeTruthy();
    const download = await uploadFile(acme, randomBytes(10), { name: 'd.zip', mime_type: 'application/zip' });
    const foreign = await uploadFile(other, pngBytes(10), image('c.png'));
    const price = { amount_type: 'fixed', price_amount: 1000, price_currency: 'usd' };
    const body = { name: 'Poster', recurring_interval: null, prices: [price] };
    const created = await api('POST', '/v1/products/', acme.token, { ...body, medias: [b.id, a.id] });
    expect(created.statusCode, created.body).toBe(201);
    expect(json(created).medias.map((m: any) => m.id)).toEqual([b.id, a.id]);
    expect(json(created).medias[0]).toMatchObject({
      service: 'product_media',
      public_url: b.public_url,
      name: 'b.png',
    });
    const productId = json(created).id;
    const reordered = await api('PATCH', `/v1/products/${productId}`, acme.token, { medias: [a.id, b.id] });
    expect(json(reordered).medias.map((m: any) => m.id)).toEqual([a.id, b.id]);
    for (const medias of [[download.id], [foreign.id], [a.id, a.id], [randomUUID()]]) {
      const refused = await api('PATCH', `/v1/products/${productId}`, acme.token, { medias });
      expect(refused.statusCode, JSON.stringify(medias)).toBe(422);
    }
    const checkout = await api('POST', '/v1/checkouts/', acme.token, { products: [productId] });
    expect(checkout.statusCode, checkout.body).toBe(201);
    expect(json(checkout).product.medias.map((m: any) => m.id)).toEqual([a.id, b.id]);
    // A deleted file leaves the product's medias.
    expect((await api('DELETE', `/v1/files/${a.id}`, acme.token)).statusCode).toBe(204);
    const after = json(await api('GET', `/v1/products/${productId}`, acme.token));
    expect(after.medias.map((m: any) => m.id)).toEqual([b.id]);
  });

  it('downloadables: an archived file is kept by those who have it and hidden from new grants', async () => {
    const one = await uploadFile(acme, randomBytes(50), { name: 'one.zip', mime_type: 'application/zip' });
    const two = await uploadFile(acme, randomBytes(60), { name: 'two.zip', mime_type: 'application/zip' });
    const benefit = await typedBenefitFactory(server, acme.organization.id, 'downloadables', {
      archived: {},
      files: [one.id, two.id],
    });
    const first = await purchaseFactory(server, acme, [benefit.id]);
    await waitForGrant(server, first.customerId, benefit.id, (g) => g.granted_at !== null);
    const archived = await api('PATCH', `/v1/benefits/${benefit.id}`, acme.token, {
      type: 'downloadables',
      properties: { archived: { [two.id]: true }, files: [one.id, two.id] },
    });
    expect(archived.statusCode, archived.body).toBe(200);
    const second = await purchaseFactory(server, acme, [benefit.id]);
    await waitForGrant(server, second.customerId, benefit.id, (g) => g.granted_at !== null);
    const names = async (customerId: string) =>
      json(await api('GET', '/v1/customer-portal/downloadables/', await sessionFor(customerId)))
        .items.map((item: any) => item.file.name)
        .sort();
    // The benefit update reaches the first customer's grant in the background: its benefit.updated event
    // says it has.
    const updatedEvent = () =>
      server.runtime.database.db
        .selectFrom('events')
        .select('id')
        .where('name', '=', 'benefit.updated')
        .where('customer_id', '=', first.customerId)
        .executeTakeFirst();
    await expect.poll(async () => (await updatedEvent()) !== undefined, { timeout: 15_000 }).toBe(true);
    expect(await names(first.customerId)).toEqual(['one.zip', 'two.zip']);
    expect(await names(second.customerId)).toEqual(['one.zip']);
  }, 60_000);

  it('uploads abandoned for a day are aborted and their rows deleted', async () => {
    const created = json(await api('POST', '/v1/files/', acme.token, createBody(randomBytes(10))));
    expect(await cleanAbandonedUploads(server.context())).toBe(0);
    clock.advance(25 * 3600 * 1000);
    expect(await cleanAbandonedUploads(server.context())).toBeGreaterThanOrEqual(1);
    const row = await server.runtime.database.db
      .selectFrom('files')
      .select('id')
      .where('id', '=', created.id)
      .executeTakeFirst();
    expect(row).toBeUndefined();
    if (s3) expect(s3.uploads.has(created.upload.id)).toBe(false);
  });
});
