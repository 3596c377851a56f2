import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Clock } from '../clock.js';
import { NotPermitted, ResourceNotFound, ResourceUnavailable, type ApiError } from '../http/errors.js';
import { LocalDiskStorage, STORAGE_DOWNLOAD_PATH } from './local-disk.js';
import { objectStorage } from './index.js';
import { signingKeyOf, verifyDownload } from './signed-url.js';
import { isValidStorageKey, StorageObjectNotFound } from './storage.js';

export interface StorageRouteDeps {
  config: Config;
  clock: Clock;
}

/** `attachment; filename="…"; filename*=UTF-8''…`: an ASCII fallback and the exact name. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
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
