import type { Readable } from 'node:stream';
import type { S3StorageOptions } from './s3.js';
import {
  assertValidStorageKey,
  isPublicKey,
  type CompletedPartSpec,
  type CompleteOptions,
  type DownloadUrlOptions,
  type LinkExpiry,
  type MultipartCreateOptions,
  type ObjectStorage,
  type PutOptions,
  type UploadPartSpec,
} from './storage.js';

/**
 * The unsigned URL of a public object in the S3 bucket (pure: no AWS SDK needed to build it).
 */
export function s3PublicUrl(options: S3StorageOptions, key: string): string {
  assertValidStorageKey(key);
  const bucket = isPublicKey(key) ? options.publicBucket : options.bucket;
  const path = key.split('/').map(encodeURIComponent).join('/');
  if (options.endpoint) {
    const endpoint = new URL(options.endpoint);
    if (options.forcePathStyle) return `${endpoint.origin}/${bucket}/${path}`;
    return `${endpoint.protocol}//${bucket}.${endpoint.host}/${path}`;
  }
  return `https://${bucket}.s3.${options.region}.amazonaws.com/${path}`;
}

/**
 * S3 storage whose backend (s3.ts and the AWS SDK, the heaviest modules of the server: about a
 * second of start-up) is loaded at the first call that needs it, so a server without S3 never loads
 * it and one with S3 starts as fast. Every call but `publicUrl` is asynchronous already.
 */
export class LazyS3Storage implements ObjectStorage {
  private backend: Promise<ObjectStorage> | undefined;

  constructor(private readonly options: S3StorageOptions) {}

  private load(): Promise<ObjectStorage> {
    this.backend ??= import('./s3.js').then(({ S3Storage }) => new S3Storage(this.options));
    // A failed import (a broken install) is tried again at the next call rather than remembered.
    this.backend.catch(() => (this.backend = undefined));
    return this.backend;
  }

  async put(key: string, body: Readable | Uint8Array, options?: PutOptions) {
    return (await this.load()).put(key, body, options);
  }
  async get(key: string) {
    return (await this.load()).get(key);
  }
  async delete(key: string) {
    return (await this.load()).delete(key);
  }
  async downloadUrl(key: string, options: DownloadUrlOptions) {
    return (await this.load()).downloadUrl(key, options);
  }
  async createMultipartUpload(key: string, options: MultipartCreateOptions) {
    return (await this.load()).createMultipartUpload(key, options);
  }
  async partUploadUrl(key: string, uploadId: string, part: UploadPartSpec, expiry: LinkExpiry) {
    return (await this.load()).partUploadUrl(key, uploadId, part, expiry);
  }
  async completeMultipartUpload(key: string, uploadId: string, parts: CompletedPartSpec[], options: CompleteOptions) {
    return (await this.load()).completeMultipartUpload(key, uploadId, parts, options);
  }
  async abortMultipartUpload(key: string, uploadId: string) {
    return (await this.load()).abortMultipartUpload(key, uploadId);
  }
  publicUrl(key: string): string {
    return s3PublicUrl(this.options, key);
  }
}
