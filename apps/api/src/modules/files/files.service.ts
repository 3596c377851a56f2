import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import {
  BadRequest,
  IssueCollector,
  ResourceNotFound,
  ResourceUnavailable,
  validationError,
} from '../../platform/http/errors.js';
import { pageOf } from '../../platform/http/query.js';
import { runIn } from '../../platform/jobs/queue.js';
import { serverClock } from '../../platform/test-clock.js';
import {
  linkExpiry,
  objectStorage,
  UploadRejected,
  type LinkExpiry,
  type ObjectStorage,
} from '../../platform/storage/index.js';
import { updateOrganization } from '../organizations/organizations.repository.js';
import { resolveOrganizationForWrite } from '../organizations/organizations.service.js';
import {
  countDownload,
  deleteProductMediasOfFile,
  findDownloadable,
  findFileById,
  findVisibleFile,
  insertFile,
  listCustomerDownloadables,
  listVisibleFiles,
  updateFile as updateFileRow,
  type FileRow,
} from './files.repository.js';
import {
  contentMatchesMime,
  fileKey,
  hexOfBase64,
  nameProblem,
  partProblems,
  type DeclaredPart,
} from './files.rules.js';
import type {
  DownloadableListParams,
  FileCreateInput,
  FileListParams,
  FilePatchInput,
  FileUploadCompletedInput,
} from './files.schemas.js';
import type { UploadView } from './files.serializer.js';
import { downloadTokenKey, issueDownloadToken, verifyDownloadToken } from './files.token.js';

/** The portal's download links (`/v1/customer-portal/downloadables/{token}`). */
export const DOWNLOADABLES_PATH = '/v1/customer-portal/downloadables';

/** How long links live: storage links on the server's clock (what checks them), tokens on the organization's. */
function expiry(ctx: Context): Date {
  return new Date(ctx.clock.now().getTime() + ctx.config.filesPresignTtlSeconds * 1000);
}

function storageLinkExpiry(ctx: Context): LinkExpiry {
  return linkExpiry(serverClock(ctx.clock), ctx.config.filesPresignTtlSeconds);
}

/** S3 metadata is ASCII: other characters of the name become `_`. */
function asciiOnly(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '_');
}

/**
 * Creates a file and its multipart upload: the name and the parts' numbers are checked (422; their
 * declared ranges are kept and echoed, never checked: files.rules.ts), the storage's upload is started
 * and a URL is signed for each part, then the row is inserted, not uploaded yet. No transaction is open
 * while the storage is called.
 */
export async function createFile(ctx: Context, input: FileCreateInput): Promise<{ row: FileRow; upload: UploadView }> {
  const organization = await resolveOrganizationForWrite(ctx, input.organization_id);
  const issues = new IssueCollector();
  const problem = nameProblem(input.name);
  if (problem) issues.add(['body', input.service, 'name'], problem);
  for (const { index, msg } of partProblems(input.upload.parts)) {
    issues.add(['body', input.service, 'upload', 'parts', index], msg);
  }
  issues.throwIfAny();

  const storage = objectStorage(ctx.config);
  const id = randomUUID();
  const key = fileKey(input.service, organization.id, id, input.name);
  const sha256Base64 = input.checksum_sha256_base64 ?? null;
  const metadata: Record<string, string> = {
    'tessera-id': id,
    'tessera-organization-id': organization.id,
    'tessera-name': asciiOnly(input.name),
    'tessera-size': String(input.size),
  };
  if (sha256Base64) metadata['tessera-sha256-base64'] = sha256Base64;
  const { uploadId } = await storage.createMultipartUpload(key, { contentType: input.mime_type, metadata });
  const partsExpiry = storageLinkExpiry(ctx);
  const parts = await Promise.all(
    input.upload.parts.map(async (part) => {
      const checksum = part.checksum_sha256_base64 ?? null;
      const spec = { number: part.number, checksumSha256Base64: checksum };
      const { url, headers } = await storage.partUploadUrl(key, uploadId, spec, partsExpiry);
      return { ...part, checksum_sha256_base64: checksum, url, expires_at: partsExpiry.at, headers };
    }),
  );
  const declared: DeclaredPart[] = input.upload.parts.map(
    ({ number, chunk_start, chunk_end, checksum_sha256_base64 }) => ({
      number,
      chunk_start,
      chunk_end,
      checksum_sha256_base64: checksum_sha256_base64 ?? null,
    }),
  );
  let row: FileRow;
  try {
    row = await insertFile(ctx.db, {
      id,
      created_at: ctx.clock.now(),
      organization_id: organization.id,
      service: input.service,
      name: input.name,
      version: input.version ?? null,
      path: key,
      mime_type: input.mime_type,
      size: input.size,
      storage_version: null,
      checksum_etag: null,
      checksum_sha256_base64: sha256Base64,
      checksum_sha256_hex: hexOfBase64(sha256Base64),
      last_modified_at: null,
      upload_id: uploadId,
      public_url: input.service === 'downloadable' ? null : storage.publicUrl(key),
      upload_parts: JSON.stringify(declared),
    });
  } catch (error) {
    await storage.abortMultipartUpload(key, uploadId).catch(() => undefined);
    throw error;
  }
  return { row, upload: { id: uploadId, path: key, parts } };
}

/**
 * Completes an upload: the parts reported must be exactly the declared ones (422 otherwise); the
 * storage checks every part's ETag and checksum, S3's 5 MiB floor for all but the last, that the
 * parts' bytes add up to the declared size, and the whole file's SHA-256 when one was declared (400
 * when something does not match: the file stays not uploaded, its parts kept for another try). A
 * completed file cannot be completed again (400). An avatar becomes its organization's `avatar_url`.
 */
export async function completeUpload(ctx: Context, id: string, input: FileUploadCompletedInput): Promise<FileRow> {
  const row = await findVisibleFile(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  if (row.is_uploaded || !row.upload_id) throw new BadRequest('The file is already uploaded.');
  if (input.id !== row.upload_id) throw validationError(['body', 'id'], 'This is not the upload of this file.');
  if (input.path !== row.path) throw validationError(['body', 'path'], 'This is not the path of this file.');
  const declared = row.upload_parts as DeclaredPart[];
  const reported = [...input.parts].sort((a, b) => a.number - b.number);
  const issues = new IssueCollector();
  if (reported.length !== declared.length || reported.some((part, index) => part.number !== declared[index]!.number)) {
    issues.add(['body', 'parts'], `The parts must be the ${declared.length} parts declared at creation, each once.`);
  }
  reported.forEach((part, index) => {
    const expected = declared[index]?.checksum_sha256_base64;
    if (expected && part.checksum_sha256_base64 && part.checksum_sha256_base64 !== expected) {
      issues.add(
        ['body', 'parts', index, 'checksum_sha256_base64'],
        'This is not the checksum the part was declared with.',
      );
    }
  });
  issues.throwIfAny();

  const storage = objectStorage(ctx.config);
  let completed;
  try {
    completed = await storage.completeMultipartUpload(
      row.path,
      row.upload_id,
      declared.map((part, index) => ({
        number: part.number,
        checksumSha256Base64: part.checksum_sha256_base64 ?? null,
        etag: reported[index]!.checksum_etag,
      })),
      { size: row.size, sha256Base64: row.checksum_sha256_base64 },
    );
  } catch (error) {
    if (error instanceof UploadRejected) throw new BadRequest(error.message);
    throw error;
  }
  if (row.service !== 'downloadable' && !contentMatchesMime(row.mime_type, await headOf(row.path, storage))) {
    await storage.delete(row.path);
    throw new BadRequest(`The file's content is not ${row.mime_type}.`);
  }
  const run = ctx.transactions ?? runIn(ctx);
  return run.transaction(async (tx) => {
    const updated = await updateFileRow(
      tx.db,
      row.id,
      {
        is_uploaded: true,
        modified_at: tx.clock.now(),
        checksum_etag: completed.etag,
        storage_version: completed.versionId,
        last_modified_at: completed.lastModified,
        upload_id: null,
        upload_parts: '[]',
      },
      true,
    );
    if (!updated) throw new BadRequest('The file is already uploaded.');
    if (updated.service === 'organization_avatar') {
      await updateOrganization(tx.db, updated.organization_id, {
        avatar_url: storage.publicUrl(updated.path),
        modified_at: tx.clock.now(),
      });
    }
    return updated;
  });
}

/** The first bytes of a stored object (at most 4 KiB), for its type's signature. */
async function headOf(key: string, storage: ObjectStorage): Promise<Buffer> {
  const object = await storage.get(key);
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of object.body) {
    chunks.push(chunk as Buffer);
    length += (chunk as Buffer).length;
    if (length >= 4096) break;
  }
  object.body.destroy();
  return Buffer.concat(chunks).subarray(0, 4096);
}

export async function listFiles(ctx: Context, params: FileListParams) {
  const { rows, total } = await listVisibleFiles(ctx.db, ctx.subject, params);
  return pageOf(rows, total, params);
}

/** `name` and `version`; empty values are ignored, as the reference (they cannot be cleared). */
export async function updateFile(ctx: Context, id: string, input: FilePatchInput): Promise<FileRow> {
  const row = await findVisibleFile(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  const changes: { name?: string; version?: string } = {};
  if (input.name) {
    const problem = nameProblem(input.name);
    if (problem) throw validationError(['body', 'name'], problem);
    changes.name = input.name;
  }
  if (input.version) changes.version = input.version;
  if (Object.keys(changes).length === 0) return row;
  return (await updateFileRow(ctx.db, row.id, { ...changes, modified_at: ctx.clock.now() }))!;
}

/**
 * Soft-deletes the file and its product media links, then removes the object (and an unfinished
 * upload) from the storage, with no transaction open. Benefits listing it are not touched.
 */
export async function deleteFile(ctx: Context, id: string): Promise<void> {
  const run = ctx.transactions ?? runIn(ctx);
  const row = await run.transaction(async (tx) => {
    const found = await findVisibleFile(tx.db, tx.subject, id);
    if (!found) throw new ResourceNotFound();
    await updateFileRow(tx.db, found.id, { deleted_at: tx.clock.now(), modified_at: tx.clock.now() });
    await deleteProductMediasOfFile(tx.db, found.id);
    return found;
  });
  const storage = objectStorage(ctx.config);
  if (row.upload_id) await storage.abortMultipartUpload(row.path, row.upload_id);
  await storage.delete(row.path);
}

// ---------------------------------------------------------------------------------------------------
// Customer portal
// ---------------------------------------------------------------------------------------------------

function customerIdOf(ctx: Context): string {
  if (ctx.subject.kind !== 'customer') throw new ResourceNotFound();
  return ctx.subject.customerId;
}

/** The customer's downloadables, each with a download link through a signed token valid for the TTL. */
export async function listDownloadables(ctx: Context, params: DownloadableListParams) {
  const { rows, total } = await listCustomerDownloadables(ctx.db, customerIdOf(ctx), params);
  const key = downloadTokenKey(ctx.config.secret);
  const expiresAt = expiry(ctx);
  return pageOf(
    rows.map(({ downloadable_id, downloadable_benefit_id, downloadable_created_at: _created, ...file }) => ({
      id: downloadable_id,
      benefit_id: downloadable_benefit_id,
      file,
      download: {
        url: `${ctx.config.baseUrl}${DOWNLOADABLES_PATH}/${issueDownloadToken(key, downloadable_id, expiresAt)}`,
        expires_at: expiresAt,
      },
    })),
    total,
    params,
  );
}

/**
 * Redeems a download token: 400 malformed, 404 a bad signature or an unknown downloadable, 410
 * expired. Counts the download and answers the storage's signed download URL for the file.
 */
export async function redeemDownloadToken(ctx: Context, token: string): Promise<string> {
  const verdict = verifyDownloadToken(downloadTokenKey(ctx.config.secret), token, ctx.clock.now());
  if (verdict.kind === 'malformed') throw new BadRequest('This download token is malformed.');
  if (verdict.kind === 'invalid') throw new ResourceNotFound();
  if (verdict.kind === 'expired') throw new ResourceUnavailable('This download link has expired.');
  const downloadable = await findDownloadable(ctx.db, verdict.id);
  if (!downloadable) throw new ResourceNotFound();
  const file = await findFileById(ctx.db, downloadable.file_id);
  if (!file || file.deleted_at || !file.is_uploaded) throw new ResourceNotFound();
  await countDownload(ctx.db, downloadable.id, ctx.clock.now());
  return objectStorage(ctx.config).downloadUrl(file.path, { expiry: storageLinkExpiry(ctx), filename: file.name });
}
