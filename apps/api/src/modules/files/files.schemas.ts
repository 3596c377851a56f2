import { z } from 'zod/v4';
import { oneOrList, paginationQuery } from '../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../platform/http/schemas.js';

export const FILE_SERVICES = ['downloadable', 'product_media', 'organization_avatar'] as const;
export const FileServiceTypes = z.enum(FILE_SERVICES).meta({ id: 'FileServiceTypes' });

/** The reference's limits: images only for media and avatars, 10 MiB and 1 MiB. */
export const IMAGE_MIME_TYPE = /^image\/(jpeg|png|gif|webp|svg\+xml)$/;
export const PRODUCT_MEDIA_MAX_BYTES = 10 * 1024 * 1024;
export const ORGANIZATION_AVATAR_MAX_BYTES = 1024 * 1024;
/**
 * S3's limit on the parts of a multipart upload, kept on every backend so that both behave alike (the
 * sizes of parts, 5 MiB to 5 GiB, are the storage's: platform/storage/storage.ts).
 */
export const MAX_PARTS = 10_000;
/** The largest file: S3's 5 TiB. */
export const MAX_FILE_BYTES = 5 * 1024 ** 4;
export const MAX_NAME_LENGTH = 255;

const Checksum = z
  .string()
  .regex(/^[A-Za-z0-9+/]{43}=$/, 'Must be a base64-encoded SHA-256 digest')
  .nullable()
  .optional();

/** `chunk_start` and `chunk_end` are any integers, as the reference's: kept and echoed, never used (files.rules.ts). */
export const S3FileCreatePart = z
  .object({
    number: z.int().min(1).max(MAX_PARTS),
    chunk_start: z.int(),
    chunk_end: z.int(),
    checksum_sha256_base64: Checksum,
  })
  .meta({ id: 'S3FileCreatePart' });

export const S3FileCreateMultipart = z
  .object({ parts: z.array(S3FileCreatePart).min(1).max(MAX_PARTS) })
  .meta({ id: 'S3FileCreateMultipart' });

const createFields = {
  organization_id: Id().nullable().optional(),
  name: z.string(),
  mime_type: z.string().min(1).max(255),
  size: z.int().min(0).max(MAX_FILE_BYTES),
  checksum_sha256_base64: Checksum,
  upload: S3FileCreateMultipart,
  version: z.string().max(255).nullable().optional(),
};

const imageMime = z.string().regex(IMAGE_MIME_TYPE, 'Must be an image: JPEG, PNG, GIF, WebP or SVG');

export const DownloadableFileCreate = z
  .object({ ...createFields, service: z.literal('downloadable') })
  .meta({ id: 'DownloadableFileCreate' });
export const ProductMediaFileCreate = z
  .object({
    ...createFields,
    service: z.literal('product_media'),
    mime_type: imageMime,
    size: z.int().min(0).max(PRODUCT_MEDIA_MAX_BYTES),
  })
  .meta({ id: 'ProductMediaFileCreate' });
export const OrganizationAvatarFileCreate = z
  .object({
    ...createFields,
    service: z.literal('organization_avatar'),
    mime_type: imageMime,
    size: z.int().min(0).max(ORGANIZATION_AVATAR_MAX_BYTES),
  })
  .meta({ id: 'OrganizationAvatarFileCreate' });

export const FileCreate = z
  .discriminatedUnion('service', [DownloadableFileCreate, ProductMediaFileCreate, OrganizationAvatarFileCreate])
  .meta({ id: 'FileCreate' });
export type FileCreateInput = z.output<typeof FileCreate>;

const readFields = {
  id: z.uuid(),
  organization_id: z.uuid(),
  name: z.string(),
  path: z.string(),
  mime_type: z.string(),
  size: z.int(),
  storage_version: z.string().nullable(),
  checksum_etag: z.string().nullable(),
  checksum_sha256_base64: z.string().nullable(),
  checksum_sha256_hex: z.string().nullable(),
  last_modified_at: DateTime().nullable(),
  version: z.string().nullable(),
  is_uploaded: z.boolean(),
  size_readable: z.string(),
};

export const DownloadableFileRead = z
  .object({ ...readFields, service: z.literal('downloadable'), created_at: DateTime() })
  .meta({ id: 'DownloadableFileRead' });
export const ProductMediaFileRead = z
  .object({ ...readFields, service: z.literal('product_media'), created_at: DateTime(), public_url: z.string() })
  .meta({ id: 'ProductMediaFileRead' });
export const OrganizationAvatarFileRead = z
  .object({ ...readFields, service: z.literal('organization_avatar'), created_at: DateTime(), public_url: z.string() })
  .meta({ id: 'OrganizationAvatarFileRead' });

export const FileRead = z
  .discriminatedUnion('service', [DownloadableFileRead, ProductMediaFileRead, OrganizationAvatarFileRead])
  .meta({ id: 'FileRead' });
export const ListResourceFileRead = ListResource(FileRead, 'ListResourceFileRead');

export const S3FileUploadPart = z
  .object({
    number: z.int(),
    chunk_start: z.int(),
    chunk_end: z.int(),
    checksum_sha256_base64: z.string().nullable().optional(),
    url: z.string(),
    expires_at: DateTime(),
    headers: z.record(z.string(), z.string()),
  })
  .meta({ id: 'S3FileUploadPart' });

export const S3FileUploadMultipart = z
  .object({ id: z.string(), path: z.string(), parts: z.array(S3FileUploadPart) })
  .meta({ id: 'S3FileUploadMultipart' });

export const FileUpload = z
  .object({ ...readFields, service: FileServiceTypes, upload: S3FileUploadMultipart })
  .meta({ id: 'FileUpload' });

export const S3FileUploadCompletedPart = z
  .object({
    number: z.int().min(1).max(MAX_PARTS),
    checksum_etag: z.string().min(1).max(1024),
    checksum_sha256_base64: z.string().max(1024).nullable(),
  })
  .meta({ id: 'S3FileUploadCompletedPart' });

export const FileUploadCompleted = z
  .object({
    id: z.string().min(1).max(1024),
    path: z.string().min(1).max(1024),
    parts: z.array(S3FileUploadCompletedPart).min(1).max(MAX_PARTS),
  })
  .meta({ id: 'FileUploadCompleted' });
export type FileUploadCompletedInput = z.output<typeof FileUploadCompleted>;

export const FilePatch = z
  .object({ name: z.string().nullable().optional(), version: z.string().max(255).nullable().optional() })
  .meta({ id: 'FilePatch' });
export type FilePatchInput = z.output<typeof FilePatch>;

export const FileListQuery = z.object({
  organization_id: oneOrList(Id()),
  ids: oneOrList(Id()),
  ...paginationQuery,
});
export type FileListParams = z.output<typeof FileListQuery>;

// Customer portal

export const S3DownloadURL = z
  .object({ url: z.string(), headers: z.record(z.string(), z.string()), expires_at: DateTime() })
  .meta({ id: 'S3DownloadURL' });

export const FileDownload = z
  .object({ ...readFields, service: FileServiceTypes, download: S3DownloadURL })
  .meta({ id: 'FileDownload' });

export const DownloadableRead = z
  .object({ id: z.uuid(), benefit_id: z.uuid(), file: FileDownload })
  .meta({ id: 'DownloadableRead' });
export const ListResourceDownloadableRead = ListResource(DownloadableRead, 'ListResourceDownloadableRead');

export const DownloadableListQuery = z.object({
  organization_id: oneOrList(Id()),
  benefit_id: oneOrList(Id()),
  ...paginationQuery,
});
export type DownloadableListParams = z.output<typeof DownloadableListQuery>;

export const DownloadableTokenParams = z.object({ token: z.string() });
