import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small S3-compatible server for tests of the S3 storage backend: exactly the calls the adapter
 * makes (PutObject, GetObject, HeadObject, DeleteObject, CreateMultipartUpload, UploadPart, ListParts,
 * CompleteMultipartUpload, AbortMultipartUpload), path-style, objects in memory. Every request must be
 * signed with SigV4 (an `Authorization: AWS4-HMAC-SHA256 …` header, or a presigned URL's
 * `X-Amz-Algorithm`/`X-Amz-Credential`/`X-Amz-Signature`, refused past `X-Amz-Date` + `X-Amz-Expires`).
 * Given `credentials`, a presigned URL's signature is recomputed as S3 does (its path, query and signed
 * headers with the values the request sends: a `content-length` signed into a part URL refuses a body
 * of another size, SignatureDoesNotMatch); the SDK's own `Authorization` headers are checked for their
 * form only. A part sent with `x-amz-checksum-sha256` must hash to it (BadDigest otherwise), and every
 * part but the last must be at least 5 MiB at completion (EntityTooSmall), as S3 does.
 *
 * No maintained npm package implements S3 with multipart uploads for Node 20 (s3rver's last release is
 * from 2021), hence this one.
 */
export interface FakeS3 {
  url: string;
  objects: Map<string, StoredObject>;
  uploads: Map<string, Upload>;
  /** Requests seen, as `METHOD operation` (assertions on what the adapter called). */
  calls: string[];
  /** Moves the bucket's clock forward (presigned links expire on it), so expiry is tested without sleeping. */
  advance(ms: number): void;
  stop(): Promise<void>;
}

interface StoredObject {
  body: Buffer;
  contentType: string;
  etag: string;
  lastModified: Date;
  metadata: Record<string, string>;
}

interface Upload {
  key: string;
  contentType: string;
  metadata: Record<string, string>;
  parts: Map<number, { body: Buffer; etag: string; sha256: string }>;
}

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;

function send(res: ServerResponse, status: number, body = '', headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...(body ? { 'content-type': 'application/xml' } : {}), ...headers });
  res.end(body);
}

function error(res: ServerResponse, status: number, code: string, message: string): void {
  send(res, status, xml(`<Error><Code>${code}</Code><Message>${message}</Message></Error>`));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `20260115T120000Z` → Date. */
function amzDate(value: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`) : new Date(Number.NaN);
}

/** RFC 3986 encoding, as SigV4's canonical query string. */
const uriEncode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest();

/**
 * The SigV4 signature of a presigned request as S3 computes it: the canonical request (method, path as
 * sent, sorted query without the signature, the signed headers' values as sent, the payload hash the URL
 * names) signed with the key derived from the secret for the credential's date, region and service.
 */
function presignedSignature(req: IncomingMessage, query: URLSearchParams, secretAccessKey: string): string {
  const signedHeaders = (query.get('X-Amz-SignedHeaders') ?? '').split(';').filter(Boolean);
  const canonicalQuery = [...query.entries()]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a, aValue], [b, bValue]) => (a === b ? compare(aValue, bValue) : compare(a, b)))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const canonicalHeaders = signedHeaders
    .map(
      (name) =>
        `${name}:${String(req.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonical = [
    req.method ?? 'GET',
    (req.url ?? '/').split('?')[0],
    canonicalQuery,
    canonicalHeaders,
    signedHeaders.join(';'),
    query.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
  ].join('\n');
  const [, date = '', region = '', service = ''] = (query.get('X-Amz-Credential') ?? '').split('/');
  const toSign = [
    'AWS4-HMAC-SHA256',
    query.get('X-Amz-Date') ?? '',
    `${date}/${region}/${service}/aws4_request`,
    createHash('sha256').update(canonical).digest('hex'),
  ].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date), region), service), 'aws4_request');
  return hmac(signingKey, toSign).toString('hex');
}

/** Whether the request carries a SigV4 signature that has not expired; the reason when not. */
function signatureProblem(
  req: IncomingMessage,
  query: URLSearchParams,
  now: number,
  credentials: FakeS3Credentials | undefined,
): string | undefined {
  const authorization = req.headers.authorization;
  if (authorization) {
    return /^AWS4-HMAC-SHA256 Credential=[^,]+, ?SignedHeaders=[^,]+, ?Signature=[0-9a-f]{64}$/.test(authorization)
      ? undefined
      : 'malformed Authorization header';
  }
  if (query.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return 'no signature';
  if (!query.get('X-Amz-Credential') || !/^[0-9a-f]{64}$/.test(query.get('X-Amz-Signature') ?? '')) {
    return 'no signature';
  }
  const signedAt = amzDate(query.get('X-Amz-Date') ?? '');
  const expires = Number(query.get('X-Amz-Expires'));
  if (Number.isNaN(signedAt.getTime()) || !Number.isInteger(expires)) return 'malformed presigned URL';
  if (now > signedAt.getTime() + expires * 1000) return 'expired';
  // Headers the URL was signed with must be sent.
  for (const name of (query.get('X-Amz-SignedHeaders') ?? '').split(';')) {
    if (name && req.headers[name] === undefined) return `signed header ${name} missing`;
  }
  if (credentials) {
    if (!query.get('X-Amz-Credential')!.startsWith(`${credentials.accessKeyId}/`)) return 'unknown access key';
    const expected = Buffer.from(presignedSignature(req, query, credentials.secretAccessKey), 'hex');
    const given = Buffer.from(query.get('X-Amz-Signature')!, 'hex');
    if (!timingSafeEqual(expected, given)) return 'signature does not match';
  }
  return undefined;
}

function metadataOf(req: IncomingMessage): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.startsWith('x-amz-meta-') && typeof value === 'string') metadata[name.slice(11)] = value;
  }
  return metadata;
}

const md5 = (body: Buffer) => createHash('md5').update(body).digest('hex');
const sha256 = (body: Buffer) => createHash('sha256').update(body).digest('base64');

export interface FakeS3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** S3's smallest part but the last. */
const MIN_PART_BYTES = 5 * 1024 * 1024;

/**
 * `publicBuckets`: buckets anyone may read (GET, HEAD) without a signature, as a public-read policy.
 * `credentials`: the key presigned URLs must be signed with (their signatures are then verified).
 */
export async function startFakeS3(
  options: { publicBuckets?: string[]; credentials?: FakeS3Credentials } = {},
): Promise<FakeS3> {
  const objects = new Map<string, StoredObject>();
  const uploads = new Map<string, Upload>();
  const calls: string[] = [];
  let offset = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://s3.local');
    const query = url.searchParams;
    const [, bucket, ...rest] = url.pathname.split('/');
    const key = rest.map(decodeURIComponent).join('/');
    const id = `${bucket}/${key}`;
    const anonymousRead =
      (req.method === 'GET' || req.method === 'HEAD') &&
      (options.publicBuckets ?? []).includes(bucket ?? '') &&
      !req.headers.authorization &&
      !query.has('X-Amz-Signature');
    const problem = anonymousRead ? undefined : signatureProblem(req, query, Date.now() + offset, options.credentials);
    if (problem) {
      calls.push(`${req.method} refused`);
      await readBody(req);
      return error(res, 403, problem === 'expired' ? 'AccessDenied' : 'SignatureDoesNotMatch', problem);
    }
    const method = req.method ?? 'GET';

    if (method === 'POST' && query.has('uploads')) {
      calls.push('CreateMultipartUpload');
      await readBody(req);
      const uploadId = randomBytes(12).toString('hex');
      uploads.set(uploadId, {
        key: id,
        contentType: String(req.headers['content-type'] ?? 'application/octet-stream'),
        metadata: metadataOf(req),
        parts: new Map(),
      });
      return send(
        res,
        200,
        xml(
          `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`,
        ),
      );
    }

    const uploadId = query.get('uploadId');
    if (uploadId !== null) {
      const upload = uploads.get(uploadId);
      if (!upload || upload.key !== id) {
        await readBody(req);
        calls.push(`${method} NoSuchUpload`);
        return error(res, 404, 'NoSuchUpload', 'The specified upload does not exist.');
      }
      if (method === 'PUT') {
        calls.push('UploadPart');
        const number = Number(query.get('partNumber'));
        const body = await readBody(req);
        const checksum = req.headers['x-amz-checksum-sha256'];
        if (typeof checksum === 'string' && sha256(body) !== checksum) {
          return error(res, 400, 'BadDigest', 'The SHA256 you specified did not match the calculated checksum.');
        }
        const etag = `"${md5(body)}"`;
        upload.parts.set(number, { body, etag, sha256: sha256(body) });
        return send(res, 200, '', { etag, 'x-amz-checksum-sha256': sha256(body) });
      }
      if (method === 'GET') {
        calls.push('ListParts');
        const parts = [...upload.parts.entries()]
          .sort(([a], [b]) => a - b)
          .map(
            ([number, part]) =>
              `<Part><PartNumber>${number}</PartNumber><ETag>${part.etag}</ETag><Size>${part.body.length}</Size><ChecksumSHA256>${part.sha256}</ChecksumSHA256></Part>`,
          )
          .join('');
        return send(
          res,
          200,
          xml(
            `<ListPartsResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts}</ListPartsResult>`,
          ),
        );
      }
      if (method === 'POST') {
        calls.push('CompleteMultipartUpload');
        const body = (await readBody(req)).toString('utf8');
        const listed = [...body.matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((m) => ({
          number: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(m[1]!)?.[1]),
          etag: (/<ETag>([^<]*)<\/ETag>/.exec(m[1]!)?.[1] ?? '').replace(/&quot;/g, '"'),
        }));
        const bodies: Buffer[] = [];
        let previous = 0;
        for (const [index, { number, etag }] of listed.entries()) {
          const part = upload.parts.get(number);
          if (!part || part.etag.replace(/"/g, '') !== etag.replace(/"/g, '')) {
            return error(res, 400, 'InvalidPart', `Part ${number} was not found or its ETag does not match.`);
          }
          if (number <= previous) return error(res, 400, 'InvalidPartOrder', 'Parts must be in ascending order.');
          if (index < listed.length - 1 && part.body.length < MIN_PART_BYTES) {
            return error(res, 400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size.');
          }
          previous = number;
          bodies.push(part.body);
        }
        const whole = Buffer.concat(bodies);
        const etag = `"${md5(Buffer.concat(bodies.map((b) => Buffer.from(md5(b), 'hex'))))}-${bodies.length}"`;
        objects.set(id, {
          body: whole,
          contentType: upload.contentType,
          etag,
          lastModified: new Date(),
          metadata: upload.metadata,
        });
        uploads.delete(uploadId);
        return send(
          res,
          200,
          xml(
            `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><ETag>${etag.replace(/"/g, '&quot;')}</ETag></CompleteMultipartUploadResult>`,
          ),
        );
      }
      if (method === 'DELETE') {
        calls.push('AbortMultipartUpload');
        uploads.delete(uploadId);
        return send(res, 204);
      }
    }

    if (method === 'PUT') {
      calls.push('PutObject');
      const body = await readBody(req);
      const etag = `"${md5(body)}"`;
      objects.set(id, {
        body,
        contentType: String(req.headers['content-type'] ?? 'application/octet-stream'),
        etag,
        lastModified: new Date(),
        metadata: metadataOf(req),
      });
      return send(res, 200, '', { etag });
    }
    if (method === 'GET' || method === 'HEAD') {
      calls.push(method === 'GET' ? 'GetObject' : 'HeadObject');
      const object = objects.get(id);
      if (!object) {
        if (method === 'HEAD') return send(res, 404);
        return error(res, 404, 'NoSuchKey', 'The specified key does not exist.');
      }
      const headers: Record<string, string> = {
        'content-type': object.contentType,
        'content-length': String(object.body.length),
        etag: object.etag,
        'last-modified': object.lastModified.toUTCString(),
      };
      const disposition = query.get('response-content-disposition');
      if (disposition) headers['content-disposition'] = disposition;
      res.writeHead(200, headers);
      return res.end(method === 'GET' ? object.body : undefined);
    }
    if (method === 'DELETE') {
      calls.push('DeleteObject');
      objects.delete(id);
      return send(res, 204);
    }
    return error(res, 405, 'MethodNotAllowed', 'Not implemented by the fake.');
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((cause: unknown) => error(res, 500, 'InternalError', String(cause)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    uploads,
    calls,
    advance: (ms) => {
      offset += ms;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
