import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Context } from '../../platform/context.js';
import { RequestValidationError } from '../../platform/http/errors.js';
import { toValidationIssues } from '../../platform/http/validation.js';
import { EventCreate, type EventCreateInput } from './events.schemas.js';
import { ingestEvents } from './events.service.js';

/**
 * Bulk loads of JSON lines (`tessera events ingest`): the file is read twice, streaming. The first pass
 * checks every line (JSON, the shape of `POST /v1/events/ingest`'s events, external ids repeated in the
 * file) and refuses the whole file, with line numbers, before anything is written. The second inserts
 * batches through the same service as the API, each batch in its own transaction; an `external_id` makes
 * a load safe to run again after an interruption (the events already in are counted as duplicates).
 */

export interface LineProblem {
  line: number;
  message: string;
}

/** The non-blank lines of a file with their 1-based numbers, streamed. */
async function* numberedLines(path: string): AsyncGenerator<{ line: number; text: string }> {
  const reader = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of reader) {
    line++;
    if (text.trim() !== '') yield { line, text };
  }
}

function parseLine(text: string): { event: EventCreateInput } | { problems: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problems: [`invalid JSON (${(error as Error).message})`] };
  }
  const parsed = EventCreate.safeParse(value);
  if (parsed.success) return { event: parsed.data };
  return {
    problems: toValidationIssues(parsed.error.issues, []).map((issue) =>
      issue.loc.length > 0 ? `${issue.loc.join('.')}: ${issue.msg}` : issue.msg,
    ),
  };
}

/** The first pass: how many events the file holds, and every problem of its lines. */
export async function checkEventLines(path: string): Promise<{ events: number; problems: LineProblem[] }> {
  const problems: LineProblem[] = [];
  const externalIds = new Map<string, number>();
  let events = 0;
  for await (const { line, text } of numberedLines(path)) {
    events++;
    const result = parseLine(text);
    if ('problems' in result) {
      for (const message of result.problems) problems.push({ line, message });
      continue;
    }
    const externalId = result.event.external_id;
    if (externalId !== undefined) {
      const first = externalIds.get(externalId);
      if (first !== undefined) problems.push({ line, message: `external_id: the same as line ${first}` });
      else externalIds.set(externalId, line);
    }
  }
  return { events, problems };
}

export interface BulkProgress {
  done: number;
  inserted: number;
  duplicates: number;
}

/** A load stopped by a batch the service refused (unknown customer, future timestamp…). */
export class BulkIngestRefused extends Error {
  constructor(
    readonly problems: LineProblem[],
    readonly progress: BulkProgress,
  ) {
    super('a batch was refused');
  }
}

/**
 * The second pass: batches of `batchSize` events, each ingested by `ingest` (a transaction of its own
 * around `ingestEvents`). Calls `onBatch` after each.
 */
export async function ingestEventLines(
  path: string,
  batchSize: number,
  ingest: (run: (ctx: Context) => Promise<{ inserted: number; duplicates: number }>) => Promise<{
    inserted: number;
    duplicates: number;
  }>,
  onBatch: (progress: BulkProgress) => void,
): Promise<BulkProgress> {
  const progress: BulkProgress = { done: 0, inserted: 0, duplicates: 0 };
  let events: EventCreateInput[] = [];
  let lines: number[] = [];
  const flush = async () => {
    if (events.length === 0) return;
    const batch = events;
    const batchLines = lines;
    events = [];
    lines = [];
    try {
      const result = await ingest((ctx) => ingestEvents(ctx, { events: batch }));
      progress.inserted += result.inserted;
      progress.duplicates += result.duplicates;
      progress.done += batch.length;
    } catch (error) {
      if (!(error instanceof RequestValidationError)) throw error;
      // body.events.<i>.<field> → the line of event i.
      const problems = error.issues.map((issue) => {
        const [, , index, ...field] = issue.loc;
        const line = typeof index === 'number' ? batchLines[index] : undefined;
        return { line: line ?? batchLines[0]!, message: `${field.join('.') || 'event'}: ${issue.msg}` };
      });
      throw new BulkIngestRefused(problems, progress);
    }
    onBatch(progress);
  };
  for await (const { line, text } of numberedLines(path)) {
    const result = parseLine(text);
    // The first pass refused any problem; a file changed in between is refused here.
    if ('problems' in result) throw new BulkIngestRefused([{ line, message: result.problems.join('; ') }], progress);
    events.push(result.event);
    lines.push(line);
    if (events.length >= batchSize) await flush();
  }
  await flush();
  return progress;
}

/** `12,000/100,000 events (12%) · 8,532 events/s · ETA 11s`: the progress line. */
export function progressLine(done: number, total: number, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const percent = total > 0 ? Math.floor((done * 100) / total) : 100;
  const eta = rate > 0 ? Math.ceil((total - done) / rate) : undefined;
  const n = (value: number) => Math.round(value).toLocaleString('en-US');
  return `${n(done)}/${n(total)} events (${percent}%) · ${n(rate)} events/s · ETA ${eta === undefined ? '?' : formatSeconds(eta)}`;
}

function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
