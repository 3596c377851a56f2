import { describeError } from '../api-error';
import { sha256Base64, wholeFileSha256Base64 } from './checksum';
import { planParts, type PartRange } from './parts';

/**
 * One file's upload: create (POST /v1/files/ with the parts and their SHA-256), PUT every part to the URL
 * the API answered (three at a time, each retried once), then complete (POST /v1/files/{id}/uploaded
 * with each part's ETag and checksum). A part that fails twice leaves the task `failed`: `retry()` sends
 * the parts still missing and completes. `cancel()` aborts every request in flight; the API removes an
 * upload left incomplete after a day.
 *
 * The network is injected (`UploadApi`, `PutPart`) so the logic is tested without a server.
 */

export type FileService = 'downloadable' | 'product_media' | 'organization_avatar';

export interface FileCreateBody {
  organization_id?: string | null;
  service: FileService;
  name: string;
  mime_type: string;
  size: number;
  checksum_sha256_base64?: string | null;
  upload: { parts: (PartRange & { checksum_sha256_base64?: string | null })[] };
}

export interface UploadPartAnswer extends PartRange {
  checksum_sha256_base64?: string | null;
  url: string;
  headers: Record<string, string>;
}

export interface FileUploadAnswer {
  id: string;
  upload: { id: string; path: string; parts: UploadPartAnswer[] };
}

export interface FileUploadCompletedBody {
  id: string;
  path: string;
  parts: { number: number; checksum_etag: string; checksum_sha256_base64: string | null }[];
}

export interface UploadApi<TFile> {
  create(body: FileCreateBody): Promise<FileUploadAnswer>;
  complete(id: string, body: FileUploadCompletedBody): Promise<TFile>;
}

export interface PutPartRequest {
  url: string;
  headers: Record<string, string>;
  body: Blob;
  signal: AbortSignal;
  /** Bytes of this part sent so far. */
  onProgress(loaded: number): void;
}

/** Sends one part and answers its ETag. */
export type PutPart = (request: PutPartRequest) => Promise<{ etag: string }>;

export type UploadPhase = 'hashing' | 'uploading' | 'completing' | 'failed' | 'done' | 'canceled';

export interface UploadSnapshot<TFile> {
  phase: UploadPhase;
  /** Bytes received by the storage so far, of `total`. */
  loaded: number;
  total: number;
  /** Parts that failed twice and wait for `retry()`. */
  failedParts: number[];
  error?: string;
  file?: TFile;
}

export interface UploadTaskOptions<TFile> {
  file: File;
  service: FileService;
  organizationId?: string;
  api: UploadApi<TFile>;
  putPart: PutPart;
  /** Parts in flight at once. */
  concurrency?: number;
  /** Preferred part size in bytes (at least 5 MiB; tests pass smaller files, not smaller parts). */
  partSize?: number;
  onChange?(snapshot: UploadSnapshot<TFile>): void;
}

interface PartState {
  answer: UploadPartAnswer;
  checksum: string;
  etag?: string;
  loaded: number;
}

export const UPLOAD_CONCURRENCY = 3;
/** Attempts per part before it waits for the Retry button: the first and one automatic retry. */
export const PART_ATTEMPTS = 2;

export class UploadTask<TFile> {
  private readonly options: UploadTaskOptions<TFile>;
  private controller = new AbortController();
  private created?: FileUploadAnswer;
  private parts: PartState[] = [];
  private state: UploadSnapshot<TFile>;

  constructor(options: UploadTaskOptions<TFile>) {
    this.options = options;
    this.state = { phase: 'hashing', loaded: 0, total: options.file.size, failedParts: [] };
  }

  get snapshot(): UploadSnapshot<TFile> {
    return this.state;
  }

  /** Hashes, creates, uploads and completes; resolves with the last snapshot (never rejects). */
  async start(): Promise<UploadSnapshot<TFile>> {
    const { file, service, organizationId, api } = this.options;
    try {
      const ranges = planParts(file.size, this.options.partSize);
      const checksums: string[] = [];
      // One part read at a time: hashing never holds more than a part (and the whole file when small).
      for (const range of ranges) {
        this.throwIfCanceled();
        checksums.push(await sha256Base64(file.slice(range.chunk_start, range.chunk_end)));
      }
      const whole = await wholeFileSha256Base64(file);
      this.throwIfCanceled();
      this.created = await api.create({
        ...(organizationId ? { organization_id: organizationId } : {}),
        service,
        name: file.name,
        mime_type: file.type || 'application/octet-stream',
        size: file.size,
        checksum_sha256_base64: whole,
        upload: { parts: ranges.map((range, index) => ({ ...range, checksum_sha256_base64: checksums[index] })) },
      });
      this.throwIfCanceled();
      const byNumber = new Map(ranges.map((range, index) => [range.number, checksums[index]!]));
      this.parts = this.created.upload.parts.map((answer) => ({
        answer,
        checksum: answer.checksum_sha256_base64 ?? byNumber.get(answer.number) ?? '',
        loaded: 0,
      }));
    } catch (error) {
      return this.settle(error);
    }
    return this.sendAndComplete();
  }

  /** Sends again the parts that failed, then completes. */
  async retry(): Promise<UploadSnapshot<TFile>> {
    if (this.state.phase !== 'failed') return this.state;
    if (!this.created) return this.start();
    return this.sendAndComplete();
  }

  cancel(): void {
    if (this.state.phase === 'done' || this.state.phase === 'canceled') return;
    this.controller.abort();
    this.update({ phase: 'canceled' });
  }

  private async sendAndComplete(): Promise<UploadSnapshot<TFile>> {
    this.update({ phase: 'uploading', failedParts: [], error: undefined });
    const pending = this.parts.filter((part) => part.etag === undefined);
    const failed: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < pending.length && !this.controller.signal.aborted) {
        const part = pending[next++]!;
        if (!(await this.sendPart(part))) failed.push(part.answer.number);
      }
    };
    const width = Math.max(1, this.options.concurrency ?? UPLOAD_CONCURRENCY);
    await Promise.all(Array.from({ length: Math.min(width, pending.length) }, worker));
    if (this.controller.signal.aborted) return this.settle(new DOMException('Canceled', 'AbortError'));
    if (failed.length > 0) {
      failed.sort((a, b) => a - b);
      const which = failed.length === 1 ? `Part ${failed[0]}` : `Parts ${failed.join(', ')}`;
      return this.update({ phase: 'failed', failedParts: failed, error: `${which} could not be sent.` });
    }
    try {
      this.update({ phase: 'completing' });
      const created = this.created!;
      const file = await this.options.api.complete(created.id, {
        id: created.upload.id,
        path: created.upload.path,
        parts: this.parts.map((part) => ({
          number: part.answer.number,
          checksum_etag: part.etag!,
          checksum_sha256_base64: part.checksum || null,
        })),
      });
      return this.update({ phase: 'done', file, loaded: this.state.total });
    } catch (error) {
      return this.settle(error);
    }
  }

  /** True when the part was received; tries PART_ATTEMPTS times. */
  private async sendPart(part: PartState): Promise<boolean> {
    const { file, putPart } = this.options;
    const { answer } = part;
    for (let attempt = 1; attempt <= PART_ATTEMPTS; attempt++) {
      if (this.controller.signal.aborted) return false;
      try {
        const { etag } = await putPart({
          url: answer.url,
          headers: answer.headers,
          body: file.slice(answer.chunk_start, answer.chunk_end),
          signal: this.controller.signal,
          onProgress: (loaded) => this.setPartLoaded(part, loaded),
        });
        part.etag = etag;
        this.setPartLoaded(part, answer.chunk_end - answer.chunk_start);
        return true;
      } catch {
        this.setPartLoaded(part, 0);
      }
    }
    return false;
  }

  private setPartLoaded(part: PartState, loaded: number) {
    part.loaded = loaded;
    this.update({ loaded: this.parts.reduce((sum, item) => sum + item.loaded, 0) });
  }

  private throwIfCanceled() {
    if (this.controller.signal.aborted) throw new DOMException('Canceled', 'AbortError');
  }

  private settle(error: unknown): UploadSnapshot<TFile> {
    if (this.controller.signal.aborted) return this.update({ phase: 'canceled' });
    return this.update({ phase: 'failed', error: messageOf(error) });
  }

  private update(patch: Partial<UploadSnapshot<TFile>>): UploadSnapshot<TFile> {
    if (this.state.phase === 'canceled' && patch.phase !== undefined && patch.phase !== 'canceled') return this.state;
    this.state = { ...this.state, ...patch };
    this.options.onChange?.(this.state);
    return this.state;
  }
}

function messageOf(error: unknown): string {
  const described = describeError(error);
  const issue = described.issues[0];
  return issue ? `${described.message} ${issue.message}` : described.message;
}
