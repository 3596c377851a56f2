import { afterEach, describe, expect, it, vi } from 'vitest';
import { base64OfBytes, sha256Base64 } from './checksum';
import { fetchPutPart } from './put-part';
import { UploadTask, type FileCreateBody, type FileUploadCompletedBody, type UploadApi } from './upload-task';

const MiB = 1024 * 1024;

function bytes(size: number): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(new ArrayBuffer(size));
  for (let index = 0; index < size; index++) data[index] = (index * 31 + 7) % 251;
  return data;
}

/** base64 one character at a time: slow and plainly right, to check the encoder against. */
const plainBase64 = (data: Uint8Array) => btoa(Array.from(data, (byte) => String.fromCharCode(byte)).join(''));
const expectedSha = async (data: Uint8Array<ArrayBuffer>) =>
  plainBase64(new Uint8Array(await crypto.subtle.digest('SHA-256', data)));

/** A fake API that answers one URL per declared part, and records what the task sends. */
function fakeApi() {
  const calls: { create?: FileCreateBody; complete?: FileUploadCompletedBody } = {};
  const api: UploadApi<{ id: string; name: string }> = {
    create: vi.fn(async (body: FileCreateBody) => {
      calls.create = body;
      return {
        id: 'file-1',
        upload: {
          id: 'upload-1',
          path: 'downloadable/org/file-1/a.bin',
          parts: body.upload.parts.map((part) => ({
            ...part,
            url: `https://storage.test/part/${part.number}`,
            headers: { 'x-amz-checksum-sha256': part.checksum_sha256_base64 ?? '' },
          })),
        },
      };
    }),
    complete: vi.fn(async (id: string, body: FileUploadCompletedBody) => {
      calls.complete = body;
      return { id, name: 'a.bin' };
    }),
  };
  return { api, calls };
}

/** `fetch` answering every PUT with an ETag, except the failures planned per part number. */
function mockFetch(failures: Record<number, number> = {}) {
  const received: { number: number; size: number; headers: Headers }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    const number = Number(url.split('/').at(-1));
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1));
    inFlight--;
    if ((failures[number] ?? 0) > 0) {
      failures[number]!--;
      return new Response('nope', { status: 500 });
    }
    received.push({ number, size: (init.body as Blob).size, headers: new Headers(init.headers) });
    return new Response(null, { status: 200, headers: { ETag: `"etag-${number}"` } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, received, maxInFlight: () => maxInFlight };
}

afterEach(() => vi.unstubAllGlobals());

describe('sha256Base64', () => {
  it('is the SHA-256 of the bytes, base64-encoded', async () => {
    const data = bytes(70_000);
    expect(await sha256Base64(new Blob([data]))).toBe(await expectedSha(data));
    expect(await sha256Base64(new Blob([]))).toBe('47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
  });

  it('encodes long byte arrays in pieces', () => {
    const data = bytes(100_000);
    expect(base64OfBytes(data)).toBe(plainBase64(data));
  });
});

describe('UploadTask', () => {
  it('declares the parts with their checksums and the whole file, sends each, completes with the ETags', async () => {
    const data = bytes(20 * MiB + 3);
    const file = new File([data], 'a.bin', { type: 'application/zip' });
    const { api, calls } = fakeApi();
    const { received, maxInFlight } = mockFetch();
    const progress: number[] = [];
    const task = new UploadTask({
      file,
      service: 'downloadable',
      organizationId: 'org-1',
      api,
      putPart: fetchPutPart,
      partSize: 5 * MiB,
      onChange: (snapshot) => progress.push(snapshot.loaded),
    });
    const result = await task.start();

    expect(result.phase).toBe('done');
    expect(result.file).toEqual({ id: 'file-1', name: 'a.bin' });
    expect(calls.create).toMatchObject({
      organization_id: 'org-1',
      service: 'downloadable',
      name: 'a.bin',
      mime_type: 'application/zip',
      size: data.length,
      checksum_sha256_base64: await expectedSha(data),
    });
    const parts = calls.create!.upload.parts;
    expect(parts.map((part) => [part.number, part.chunk_start, part.chunk_end])).toEqual([
      [1, 0, 5 * MiB],
      [2, 5 * MiB, 10 * MiB],
      [3, 10 * MiB, 15 * MiB],
      [4, 15 * MiB, 20 * MiB],
      [5, 20 * MiB, 20 * MiB + 3],
    ]);
    for (const part of parts) {
      expect(part.checksum_sha256_base64).toBe(await expectedSha(data.subarray(part.chunk_start, part.chunk_end)));
    }
    // Every part sent once with its checksum header, at most three at a time.
    expect(received.map((part) => part.number).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(received.find((part) => part.number === 5)!.size).toBe(3);
    expect(received.find((part) => part.number === 2)!.headers.get('x-amz-checksum-sha256')).toBe(
      parts[1]!.checksum_sha256_base64,
    );
    expect(maxInFlight()).toBe(3);
    expect(calls.complete).toEqual({
      id: 'upload-1',
      path: 'downloadable/org/file-1/a.bin',
      parts: parts.map((part) => ({
        number: part.number,
        checksum_etag: `"etag-${part.number}"`,
        checksum_sha256_base64: part.checksum_sha256_base64,
      })),
    });
    expect(progress.at(-1)).toBe(data.length);
  });

  it('retries a failed part once by itself', async () => {
    const file = new File([bytes(11 * MiB)], 'a.bin');
    const { api } = fakeApi();
    const { fetchMock } = mockFetch({ 2: 1 });
    const result = await new UploadTask({ file, service: 'downloadable', api, putPart: fetchPutPart }).start();
    expect(result.phase).toBe('done');
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('waits for retry() after a part fails twice, then sends only what is missing', async () => {
    const file = new File([bytes(11 * MiB)], 'a.bin', { type: '' });
    const { api, calls } = fakeApi();
    const { fetchMock } = mockFetch({ 1: 2 });
    const task = new UploadTask({ file, service: 'downloadable', api, putPart: fetchPutPart });
    const failed = await task.start();
    expect(failed).toMatchObject({ phase: 'failed', failedParts: [1], error: 'Part 1 could not be sent.' });
    expect(api.complete).not.toHaveBeenCalled();
    expect(failed.loaded).toBe(3 * MiB);
    expect(calls.create!.mime_type).toBe('application/octet-stream');

    fetchMock.mockClear();
    const done = await task.retry();
    expect(done.phase).toBe('done');
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['https://storage.test/part/1']);
    expect(api.create).toHaveBeenCalledTimes(1);
  });

  it('says why the API refused the file, and creates it again on retry', async () => {
    const file = new File([bytes(10)], 'a.png', { type: 'image/png' });
    const { api } = fakeApi();
    mockFetch();
    vi.mocked(api.create).mockRejectedValueOnce(new Error('Too large.'));
    const task = new UploadTask({ file, service: 'product_media', api, putPart: fetchPutPart });
    expect(await task.start()).toMatchObject({ phase: 'failed', error: 'Too large.' });
    expect((await task.retry()).phase).toBe('done');
  });

  it('cancel aborts the parts in flight and never completes', async () => {
    const file = new File([bytes(11 * MiB)], 'a.bin');
    const { api } = fakeApi();
    let started!: () => void;
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    const putPart = vi.fn(
      ({ signal }: { signal: AbortSignal }) =>
        new Promise<{ etag: string }>((_, reject) => {
          started();
          signal.addEventListener('abort', () => reject(new DOMException('Canceled', 'AbortError')));
        }),
    );
    const task = new UploadTask({ file, service: 'downloadable', api, putPart });
    const running = task.start();
    await inFlight;
    task.cancel();
    expect((await running).phase).toBe('canceled');
    expect(api.complete).not.toHaveBeenCalled();
  });
});
