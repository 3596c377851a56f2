import type { z } from 'zod/v4';
import { iso } from '../../platform/http/schemas.js';
import type { ObjectStorage } from '../../platform/storage/index.js';
import type { FileRow } from './files.repository.js';
import { sizeReadable } from './files.rules.js';
import type { FileRead, FileUpload, ProductMediaFileRead } from './files.schemas.js';

function fileFields(row: FileRow) {
  return {
    id: row.id,
    organization_id: row.organization_id,
    name: row.name,
    path: row.path,
    mime_type: row.mime_type,
    size: row.size,
    storage_version: row.storage_version,
    checksum_etag: row.checksum_etag,
    checksum_sha256_base64: row.checksum_sha256_base64,
    checksum_sha256_hex: row.checksum_sha256_hex,
    last_modified_at: iso(row.last_modified_at),
    version: row.version,
    is_uploaded: row.is_uploaded,
    size_readable: sizeReadable(row.size),
  };
}

/** `FileRead`: media and avatars add their unsigned public URL. */
export function serializeFile(row: FileRow, storage: ObjectStorage): z.input<typeof FileRead> {
  const base = { ...fileFields(row), created_at: iso(row.created_at) };
  if (row.service === 'downloadable') return { ...base, service: 'downloadable' };
  return { ...base, service: row.service, public_url: row.public_url ?? storage.publicUrl(row.path) };
}

/** A product's media as products show it: the public URL fixed when the file was created. */
export function serializeProductMedia(row: FileRow): z.input<typeof ProductMediaFileRead> {
  return {
    ...fileFields(row),
    created_at: iso(row.created_at),
    service: 'product_media',
    public_url: row.public_url ?? '',
  };
}

export interface UploadView {
  id: string;
  path: string;
  parts: {
    number: number;
    chunk_start: number;
    chunk_end: number;
    checksum_sha256_base64: string | null;
    url: string;
    expires_at: Date;
    headers: Record<string, string>;
  }[];
}

/** `FileUpload`: the file as created (no `created_at`, no `public_url`) and where to send its parts. */
export function serializeFileUpload(row: FileRow, upload: UploadView): z.input<typeof FileUpload> {
  return {
    ...fileFields(row),
    service: row.service,
    upload: {
      id: upload.id,
      path: upload.path,
      parts: upload.parts.map((part) => ({ ...part, expires_at: iso(part.expires_at) })),
    },
  };
}

/** The file fields of a `FileDownload` (the portal's downloadables). */
export function fileDownloadFields(row: FileRow) {
  return { ...fileFields(row), service: row.service };
}
