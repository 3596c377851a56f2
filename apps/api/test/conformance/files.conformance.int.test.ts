import { createHash, randomBytes } from 'node:crypto';
import { Polar } from '@polar-sh/sdk';
import { HTTPClient } from '@polar-sh/sdk/lib/http.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchaseFactory, typedBenefitFactory, waitForGrant } from '../factories/benefit-grants.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { bearer, json, startTestServer, type TestServer } from '../harness.js';

/**
 * Files and the portal's downloadables through the official `@polar-sh/sdk@0.33.2`: every `files.*`
 * and `customerPortal.downloadables.*` method; responses pass the SDK's own validation.
 */
let server: TestServer;
let acme: OrganizationFixture;
let polar: Polar;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  acme = await organizationFactory(server, { name: 'Acme' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
});
afterAll(() => server?.stop());

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');
const reach = (url: string) => url.replace(/^http:\/\/127\.0\.0\.1(?=\/)/, server.url);

describe('files through @polar-sh/sdk', () => {
  it('files.create, uploaded, list, update, delete; customerPortal.downloadables.list and get', async () => {
    const bytes = randomBytes(4096);
    const upload = await polar.files.create({
      organizationId: null,
      name: 'guide.pdf',
      mimeType: 'application/pdf',
      size: bytes.length,
      checksumSha256Base64: sha256(bytes),
      service: 'downloadable',
      upload: { parts: [{ number: 1, chunkStart: 0, chunkEnd: bytes.length, checksumSha256Base64: sha256(bytes) }] },
    });
    expect(upload).toMatchObject({ name: 'guide.pdf', isUploaded: false, sizeReadable: '4.0 KB' });
    const part = upload.upload.parts[0]!;
    const sent = await fetch(reach(part.url), { method: 'PUT', headers: part.headers, body: bytes });
    expect(sent.status).toBe(200);
    const completed = await polar.files.uploaded({
      id: upload.id,
      fileUploadCompleted: {
        id: upload.upload.id,
        path: upload.upload.path,
        parts: [
          {
            number: 1,
            checksumEtag: sent.headers.get('etag')!,
            checksumSha256Base64: part.checksumSha256Base64 ?? null,
          },
        ],
      },
    });
    expect(completed).toMatchObject({ id: upload.id, isUploaded: true, service: 'downloadable' });

    const page = await polar.files.list({ ids: [upload.id] });
    expect(page.result.items.map((file) => file.id)).toEqual([upload.id]);

    const updated = await polar.files.update({ id: upload.id, filePatch: { name: 'guide-v2.pdf', version: '2' } });
    expect(updated).toMatchObject({ name: 'guide-v2.pdf', version: '2' });

    const benefit = await typedBenefitFactory(server, acme.organization.id, 'downloadables', {
      archived: {},
      files: [upload.id],
    });
    const purchase = await purchaseFactory(server, acme, [benefit.id]);
    await waitForGrant(server, purchase.customerId, benefit.id, (grant) => grant.granted_at !== null);
    const session = json(
      await server.inject({
        method: 'POST',
        url: '/v1/customer-sessions/',
        headers: bearer(acme.token),
        payload: { customer_id: purchase.customerId },
      }),
    ).token as string;
    // The redirect is answered to the SDK as is (302, no body): the browser is the one that follows it.
    const manual = new HTTPClient({ fetcher: (input, init) => fetch(input, { ...init, redirect: 'manual' }) });
    const portal = new Polar({ serverURL: server.url, httpClient: manual });
    const downloads = await portal.customerPortal.downloadables.list({ customerSession: session }, {});
    const [item] = downloads.result.items;
    expect(item).toMatchObject({ benefitId: benefit.id, file: { id: upload.id, name: 'guide-v2.pdf' } });
    const token = new URL(item!.file.download.url).pathname.split('/').pop()!;
    await expect(portal.customerPortal.downloadables.get({ token })).resolves.toBeUndefined();

    await polar.files.delete({ id: upload.id });
    await expect(polar.files.delete({ id: upload.id })).rejects.toBeInstanceOf(ResourceNotFound);
    expect((await polar.files.list({ ids: [upload.id] })).result.items).toEqual([]);
  });

  it('product media and avatars create with their own services', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(100)]);
    for (const service of ['product_media', 'organization_avatar'] as const) {
      const upload = await polar.files.create({
        name: 'logo.png',
        mimeType: 'image/png',
        size: png.length,
        service,
        upload: { parts: [{ number: 1, chunkStart: 0, chunkEnd: png.length }] },
      });
      const part = upload.upload.parts[0]!;
      const sent = await fetch(reach(part.url), { method: 'PUT', body: png });
      const read = await polar.files.uploaded({
        id: upload.id,
        fileUploadCompleted: {
          id: upload.upload.id,
          path: upload.upload.path,
          parts: [{ number: 1, checksumEtag: sent.headers.get('etag')!, checksumSha256Base64: null }],
        },
      });
      expect(read.service).toBe(service);
      expect('publicUrl' in read && read.publicUrl).toBeTruthy();
    }
  });

  it('parts declared with inclusive ends, as uploaders written for Polar declare them, are echoed and go up', async () => {
    const bytes = randomBytes(6 * 1024 * 1024 + 10);
    const first = bytes.subarray(0, 5 * 1024 * 1024);
    const second = bytes.subarray(5 * 1024 * 1024);
    const upload = await polar.files.create({
      name: 'inclusive.bin',
      mimeType: 'application/octet-stream',
      size: bytes.length,
      checksumSha256Base64: sha256(bytes),
      service: 'downloadable',
      upload: {
        parts: [
          { number: 1, chunkStart: 0, chunkEnd: first.length - 1, checksumSha256Base64: sha256(first) },
          { number: 2, chunkStart: first.length, chunkEnd: bytes.length - 1, checksumSha256Base64: sha256(second) },
        ],
      },
    });
    expect(upload.upload.parts.map((part) => [part.chunkStart, part.chunkEnd])).toEqual([
      [0, first.length - 1],
      [first.length, bytes.length - 1],
    ]);
    const etags: string[] = [];
    for (const [index, body] of [first, second].entries()) {
      const part = upload.upload.parts[index]!;
      const sent = await fetch(reach(part.url), { method: 'PUT', headers: part.headers, body });
      expect(sent.status).toBe(200);
      etags.push(sent.headers.get('etag')!);
    }
    const completed = await polar.files.uploaded({
      id: upload.id,
      fileUploadCompleted: {
        id: upload.upload.id,
        path: upload.upload.path,
        parts: upload.upload.parts.map((part, index) => ({
          number: part.number,
          checksumEtag: etags[index]!,
          checksumSha256Base64: part.checksumSha256Base64 ?? null,
        })),
      },
    });
    expect(completed).toMatchObject({ id: upload.id, isUploaded: true, size: bytes.length });
  });
});
