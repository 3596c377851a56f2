import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Clock } from '../clock.js';
import { NotPermitted, ResourceNotFound, ResourceUnavailable, type ApiError } from '../http/errors.js';
import type { Readable } from 'node:stream';
import {
  LocalDiskStorage,
  PartRejected,
  STORAGE_DOWNLOAD_PATH,
  STORAGE_PUBLIC_PATH,
  STORAGE_UPLOAD_PATH,
} from './local-disk.js';
import { objectStorage } from './index.js';
import { signingKeyOf, verifyDownload, verifyPartUpload } from './signed-url.js';
import { isPublicKey, isValidStorageKey, MAX_PART_BYTES, StorageObjectNotFound } from './storage.js';
import { contentDisposition } from './content-disposition.js';

export { contentDisposition };

export interface StorageRouteDeps {
  config: Config;
  clock: Clock;
}

/**
 * `GET /v1/storage/download/<key>?expires=…&filename=…&signature=…`: the local-disk backend's signed
 * links. Not part of the API contract (no credentials: the signature is the permission), a plain route
 * outside the OpenAPI document. A link whose key, expiry or file name was changed is 403; a genuine
 * one past its expiry is 410; the file is streamed from disk.
 */
export function registerStorageDownloadRoute(app: FastifyInstance, deps: StorageRouteDeps): void {
  const storage = objectStorage(deps.config);
  if (!(storage instanceof LocalDiskStorage)) return;
  const signingKey = signingKeyOf(deps.config.secret);
  const refuse = (error: ApiError) => ({ status: error.status, body: error.body() });

  app.get(`${STORAGE_DOWNLOAD_PATH}/*`, async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    const query = request.query as Record<string, unknown>;
    const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
    const signature = text('signature');
    const expires = Number(text('expires') ?? Number.NaN);
    const filename = text('filename');
    let failure: { status: number; body: Record<string, unknown> } | undefined;
    if (!signature || !isValidStorageKey(key)) failure = refuse(new NotPermitted('This download link is not valid.'));
    else {
      const verdict = verifyDownload(signingKey, { key, expires, filename }, signature, deps.clock.now());
      if (verdict === 'invalid') failure = refuse(new NotPermitted('This download link is not valid.'));
      else if (verdict === 'expired') failure = refuse(new ResourceUnavailable('This download link has expired.'));
    }
    if (failure) return reply.code(failure.status).type('application/json').send(failure.body);
    try {
      const object = await storage.get(key);
      reply
        .type(object.contentType)
        .header('content-length', String(object.size))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff');
      if (filename) reply.header('content-disposition', contentDisposition(filename));
      return reply.send(object.body);
    } catch (error) {
      if (error instanceof StorageObjectNotFound) {
        return reply.code(404).type('application/json').send(new ResourceNotFound().body());
      }
      throw error;
    }
  });
}

/**
 * The local-disk backend's part uploads and public objects, both plain routes outside the contract:
 *
 * - `PUT /v1/storage/upload/<upload>/<part>?key[&checksum]&expires&signature`: the body is streamed to
 *   disk (never buffered) after the link is checked (403 changed, 410 expired). Any size up to 5 GiB is
 *   taken, as S3 takes it (sizes are checked at completion); more, or a SHA-256 that is not the signed
 *   `x-amz-checksum-sha256`, is 400 and the part stays as it was. Answers 200 with the part's `ETag`,
 *   as S3.
 * - `GET /v1/storage/public/<key>`: objects under a public prefix (product media, avatars), unsigned.
 */
export async function registerStorageUploadRoutes(app: FastifyInstance, deps: StorageRouteDeps): Promise<void> {
  const storage = objectStorage(deps.config);
  if (!(storage instanceof LocalDiskStorage)) return;
  const signingKey = signingKeyOf(deps.config.secret);
  const json = (status: number, body: Record<string, unknown>) => ({ status, body });

  app.get(`${STORAGE_PUBLIC_PATH}/*`, async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    if (!isValidStorageKey(key) || !isPublicKey(key)) {
      return reply.code(404).type('application/json').send(new ResourceNotFound().body());
    }
    try {
      const object = await storage.get(key);
      return (
        reply
          .type(object.contentType)
          .header('content-length', String(object.size))
          .header('cache-control', 'public, max-age=300')
          .header('x-content-type-options', 'nosniff')
          // An SVG opened from here runs no script and loads nothing.
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
          .send(object.body)
      );
    } catch (error) {
      if (error instanceof StorageObjectNotFound) {
        return reply.code(404).type('application/json').send(new ResourceNotFound().body());
      }
      throw error;
    }
  });

  await app.register(async (scope) => {
    // The body is the part's bytes, whatever its type: handed over as the raw stream.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    scope.put(`${STORAGE_UPLOAD_PATH}/:uploadId/:number`, { bodyLimit: MAX_PART_BYTES }, async (request, reply) => {
      const { uploadId, number } = request.params as { uploadId: string; number: string };
      const query = request.query as Record<string, unknown>;
      const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
      const integer = (value: string | undefined) => (value && /^\d{1,16}$/.test(value) ? Number(value) : Number.NaN);
      const key = text('key') ?? '';
      const grant = {
        uploadId,
        key,
        number: integer(number),
        checksum: text('checksum'),
        expires: integer(text('expires')),
      };
      const signature = text('signature');
      let failure: { status: number; body: Record<string, unknown> } | undefined;
      if (!signature || !isValidStorageKey(key)) {
        failure = json(403, new NotPermitted('This upload link is not valid.').body());
      } else {
        const verdict = verifyPartUpload(signingKey, grant, signature, deps.clock.now());
        if (verdict === 'invalid') failure = json(403, new NotPermitted('This upload link is not valid.').body());
        else if (verdict === 'expired')
          failure = json(410, new ResourceUnavailable('This upload link has expired.').body());
      }
      const sentChecksum = request.headers['x-amz-checksum-sha256'];
      if (!failure && grant.checksum && sentChecksum !== grant.checksum) {
        failure = json(400, {
          error: 'BadDigest',
          detail: 'The x-amz-checksum-sha256 header must be the checksum the part was declared with.',
        });
      }
      const declaredLength = request.headers['content-length'];
      if (!failure && declaredLength !== undefined && Number(declaredLength) > MAX_PART_BYTES) {
        failure = json(400, { error: 'EntityTooLarge', detail: 'A part is at most 5 GiB.' });
      }
      if (failure) {
        request.raw.resume();
        return reply.code(failure.status).header('connection', 'close').type('application/json').send(failure.body);
      }
      try {
        const part = { number: grant.number, checksumSha256Base64: grant.checksum };
        const { etag, sha256Base64 } = await storage.receivePart(key, uploadId, part, request.raw as Readable);
        return reply
          .header('etag', etag)
          .header('x-amz-checksum-sha256', sha256Base64)
          .header('access-control-expose-headers', 'ETag')
          .code(200)
          .send();
      } catch (error) {
        if (error instanceof PartRejected) {
          const status = error.code === 'NoSuchUpload' ? 404 : 400;
          request.raw.resume();
          return reply
            .code(status)
            .header('connection', 'close')
            .type('application/json')
            .send({ error: error.code, detail: error.message });
        }
        throw error;
      }
    });
  });
}
