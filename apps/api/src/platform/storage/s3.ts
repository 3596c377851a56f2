import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
  type Part,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  assertValidStorageKey,
  contentTypeOfKey,
  isPublicKey,
  sameEtag,
  StorageObjectNotFound,
  UploadRejected,
  type CompletedPartSpec,
  type CompletedUpload,
  type CompleteOptions,
  type DownloadUrlOptions,
  type LinkExpiry,
  type MultipartCreateOptions,
  type ObjectStorage,
  type PartUploadUrl,
  type PutOptions,
  type StoredObject,
  type UploadPartSpec,
} from './storage.js';
import { contentDisposition } from './content-disposition.js';
import { s3PublicUrl } from './s3-lazy.js';

export interface S3StorageOptions {
  /** Unset: AWS's own endpoint for the region. MinIO, R2, Ceph: their URL. */
  endpoint: string | undefined;
  region: string;
  /** The private bucket (invoices, downloadable files). */
  bucket: string;
  /** The public bucket (product media, avatars): readable by anyone, linked unsigned. */
  publicBucket: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** Path-style URLs (`endpoint/bucket/key`), which MinIO and most self-hosted servers need. */
  forcePathStyle: boolean;
}

function isMissing(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)
  );
}

/**
 * Objects in an S3-compatible bucket through the AWS SDK v3. Keys under a public prefix go to the
 * public bucket, the rest to the private one. Multipart uploads are S3's own: part URLs are presigned
 * `UploadPart` requests, signed with the part's SHA-256 when the client gave one (S3 then refuses a
 * body that does not match it) and never with a length: a part is whatever bytes the client sends, as
 * on Polar, and its size is checked at completion.
 */
export class S3Storage implements ObjectStorage {
  readonly client: S3Client;

  constructor(private readonly options: S3StorageOptions) {
    this.client = new S3Client({
      endpoint: options.endpoint,
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
      // Presigned part URLs carry only the checksum we choose, never one of an empty body.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private bucketOf(key: string): string {
    assertValidStorageKey(key);
    return isPublicKey(key) ? this.options.publicBucket : this.options.bucket;
  }

  async put(key: string, body: Readable | Uint8Array, options: PutOptions = {}): Promise<{ size: number }> {
    // A stream of unknown length goes up as one buffered body only for small server-made files
    // (invoices); uploads from clients never pass here.
    const chunks: Buffer[] = [];
    if (body instanceof Readable) for await (const chunk of body) chunks.push(chunk as Buffer);
    const bytes = body instanceof Readable ? Buffer.concat(chunks) : Buffer.from(body);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucketOf(key),
        Key: key,
        Body: bytes,
        ContentType: options.contentType ?? contentTypeOfKey(key),
      }),
    );
    return { size: bytes.length };
  }

  async get(key: string): Promise<StoredObject> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucketOf(key), Key: key }));
      return {
        body: answer.Body as Readable,
        size: answer.ContentLength ?? 0,
        contentType: answer.ContentType ?? contentTypeOfKey(key),
      };
    } catch (error) {
      if (isMissing(error)) throw new StorageObjectNotFound(key);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucketOf(key), Key: key }));
  }

  async downloadUrl(key: string, options: DownloadUrlOptions): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucketOf(key),
      Key: key,
      ResponseContentDisposition: options.filename ? contentDisposition(options.filename) : undefined,
    });
    return getSignedUrl(this.client, command, { expiresIn: presignSeconds(options.expiry) });
  }

  publicUrl(key: string): string {
    return s3PublicUrl(this.options, key);
  }

  async createMultipartUpload(key: string, options: MultipartCreateOptions): Promise<{ uploadId: string }> {
    const answer = await this.client.send(
      new CreateMultipartUploadCommand({
        Bucket: this.bucketOf(key),
        Key: key,
        ContentType: options.contentType,
        ChecksumAlgorithm: 'SHA256',
        Metadata: options.metadata,
      }),
    );
    if (!answer.UploadId) throw new Error('S3 answered no UploadId');
    return { uploadId: answer.UploadId };
  }

  async partUploadUrl(key: string, uploadId: string, part: UploadPartSpec, expiry: LinkExpiry): Promise<PartUploadUrl> {
    const checksum = part.checksumSha256Base64 ?? undefined;
    const command = new UploadPartCommand({
      Bucket: this.bucketOf(key),
      Key: key,
      UploadId: uploadId,
      PartNumber: part.number,
      // No ContentLength: it would be signed (`content-length` in X-Amz-SignedHeaders) and S3 would
      // refuse any body of another size.
      ChecksumSHA256: checksum,
      ChecksumAlgorithm: checksum ? 'SHA256' : undefined,
    });
    const headers: Record<string, string> = checksum
      ? { 'x-amz-checksum-sha256': checksum, 'x-amz-sdk-checksum-algorithm': 'SHA256' }
      : {};
    const url = await getSignedUrl(this.client, command, {
      expiresIn: presignSeconds(expiry),
      // The checksum stays a signed header the client must send, as S3 verifies it against the body.
      unhoistableHeaders: new Set(Object.keys(headers)),
      signableHeaders: new Set(Object.keys(headers)),
    });
    return { url, headers };
  }

  async completeMultipartUpload(
    key: string,
    uploadId: string,
    parts: CompletedPartSpec[],
    options: CompleteOptions,
  ): Promise<CompletedUpload> {
    const Bucket = this.bucketOf(key);
    const received = new Map<number | undefined, Part>();
    try {
      // S3 lists at most 1,000 parts a page.
      let marker: string | undefined;
      for (;;) {
        const page = await this.client.send(
          new ListPartsCommand({ Bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker }),
        );
        for (const part of page.Parts ?? []) received.set(part.PartNumber, part);
        if (!page.IsTruncated || !page.NextPartNumberMarker) break;
        marker = page.NextPartNumberMarker;
      }
    } catch (error) {
      if (error instanceof S3ServiceException && error.name === 'NoSuchUpload') {
        throw new UploadRejected('The upload does not exist or was already completed.');
      }
      throw error;
    }
    let total = 0;
    for (const part of parts) {
      const stored = received.get(part.number);
      if (!stored) throw new UploadRejected(`Part ${part.number} was not uploaded.`);
      total += stored.Size ?? 0;
      if (!sameEtag(stored.ETag ?? '', part.etag)) throw new UploadRejected(`Part ${part.number} has another ETag.`);
      if (part.checksumSha256Base64 && stored.ChecksumSHA256 && stored.ChecksumSHA256 !== part.checksumSha256Base64) {
        throw new UploadRejected(`Part ${part.number} does not match its SHA-256 checksum.`);
      }
    }
    // Checked before S3 joins them, so that no object of another size is ever made. The 5 MiB floor
    // of all parts but the last is S3's own (EntityTooSmall, below).
    if (total !== options.size) {
      throw new UploadRejected(`The parts have ${total} bytes; the file was declared with ${options.size}.`);
    }
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: {
            Parts: parts.map((part) => ({
              PartNumber: part.number,
              ETag: part.etag,
              ChecksumSHA256: part.checksumSha256Base64 ?? undefined,
            })),
          },
        }),
      );
    } catch (error) {
      if (error instanceof S3ServiceException && (error.$metadata.httpStatusCode ?? 500) < 500) {
        throw new UploadRejected(`The storage refused the upload: ${error.name}.`);
      }
      throw error;
    }
    const head = await this.client.send(new HeadObjectCommand({ Bucket, Key: key }));
    if (options.sha256Base64) {
      const hash = createHash('sha256');
      const object = await this.get(key);
      await pipeline(object.body, hash);
      if (hash.digest('base64') !== options.sha256Base64) {
        await this.delete(key);
        throw new UploadRejected('The file does not match its SHA-256 checksum.');
      }
    }
    return {
      size: head.ContentLength ?? 0,
      etag: head.ETag ?? '',
      versionId: head.VersionId ?? null,
      lastModified: head.LastModified ?? new Date(),
    };
  }

  async abortMultipartUpload(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(
        new AbortMultipartUploadCommand({ Bucket: this.bucketOf(key), Key: key, UploadId: uploadId }),
      );
    } catch (error) {
      if (error instanceof S3ServiceException && (error.name === 'NoSuchUpload' || isMissing(error))) return;
      throw error;
    }
  }
}

/** S3 presigns for 1 second to 7 days. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

function presignSeconds(expiry: LinkExpiry): number {
  return Math.min(MAX_PRESIGN_SECONDS, Math.max(1, Math.ceil(expiry.seconds)));
}
