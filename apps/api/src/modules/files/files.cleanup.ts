import { z } from 'zod/v4';
import type { Context } from '../../platform/context.js';
import type { PeriodicTask } from '../../platform/jobs/periodic.js';
import { defineJob } from '../../platform/jobs/queue.js';
import { objectStorage } from '../../platform/storage/index.js';
import { deleteAbandonedUpload, findAbandonedUploads } from './files.repository.js';

/** An upload not completed within a day is abandoned. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;
const BATCH = 100;

/**
 * Aborts the storage's multipart upload of every file not completed within a day and deletes its
 * row (nothing refers to a file that was never uploaded). The storage is called with no transaction
 * open; each row goes in a statement of its own. Answers how many were cleaned.
 */
export async function cleanAbandonedUploads(ctx: Context): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - ABANDONED_AFTER_MS);
  const storage = objectStorage(ctx.config);
  let cleaned = 0;
  for (;;) {
    const rows = await findAbandonedUploads(ctx.db, before, BATCH);
    for (const row of rows) {
      if (row.upload_id) await storage.abortMultipartUpload(row.path, row.upload_id);
      await deleteAbandonedUpload(ctx.db, row.id);
      cleaned++;
    }
    if (rows.length < BATCH) break;
  }
  if (cleaned > 0) ctx.log.info({ cleaned }, 'abandoned uploads cleaned');
  return cleaned;
}

export const cleanAbandonedUploadsJob = defineJob<Record<string, never>>({
  name: 'files.clean_abandoned_uploads',
  schema: z.object({}),
  transaction: false,
  retryLimit: 1,
  async handle(ctx) {
    await cleanAbandonedUploads(ctx);
  },
});

/** Every hour. */
export const cleanAbandonedUploadsSchedule: PeriodicTask = { job: cleanAbandonedUploadsJob, everySeconds: 3600 };
