import type { ColumnType } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from './types.js';

/** Tables of migration 0029: files, product medias, downloadables. */
export type FileService = 'downloadable' | 'product_media' | 'organization_avatar';

export interface FilesTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  organization_id: string;
  service: FileService;
  name: string;
  version: string | null;
  path: string;
  mime_type: string;
  size: number;
  storage_version: string | null;
  checksum_etag: string | null;
  checksum_sha256_base64: string | null;
  checksum_sha256_hex: string | null;
  last_modified_at: NullableTimestamp;
  is_uploaded: ColumnType<boolean, boolean | undefined, boolean>;
  is_enabled: ColumnType<boolean, boolean | undefined, boolean>;
  upload_id: string | null;
  upload_parts: Json;
  /** Migration 0030: media and avatars only. */
  public_url: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ProductMediasTable {
  product_id: string;
  file_id: string;
  order: number;
}

export interface DownloadablesTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  customer_id: string;
  file_id: string;
  benefit_id: string;
  status: 'granted' | 'revoked';
  downloaded: ColumnType<number, number | undefined, number>;
  last_downloaded_at: NullableTimestamp;
}

export interface FilesTables {
  files: FilesTable;
  product_medias: ProductMediasTable;
  downloadables: DownloadablesTable;
}
