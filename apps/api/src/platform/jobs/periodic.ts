import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { JobDefinition, Jobs } from './queue.js';

/**
 * Periodic jobs without pg-boss's cron (disabled: it runs on wall-clock time, not the app clock). Every
 * worker ticks; each tick enqueues the job of the period slot of the app clock under an id derived from
 * the job and the slot, so several workers (and restarts) enqueue it once per period: the second insert
 * of an id does nothing. (A singleton key alone does not do it: pg-boss enforces singleton keys only for
 * some queue policies and only while a job waits, so each worker's tick used to add a run.)
 */
export interface PeriodicTask {
  job: JobDefinition<Record<string, never>>;
  everySeconds: number;
}

/** The job id of one period slot of a task: a uuid (v8, name-based) every worker derives alike. */
export function periodJobId(jobName: string, slot: number): string {
  const hex = createHash('sha256').update(`tessera.periodic:${jobName}:${slot}`).digest('hex').slice(0, 32);
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The slot of `now` for a period: the same for every worker during one period. */
export function periodSlot(now: Date, everySeconds: number): number {
  return Math.floor(now.getTime() / (everySeconds * 1000));
}

export class PeriodicScheduler {
  private timer: NodeJS.Timeout | undefined;
  private readonly lastSlot = new Map<string, number>();
  private running: Promise<void> | undefined;

  constructor(
    private readonly jobs: Jobs,
    private readonly clock: Clock,
    private readonly tasks: readonly PeriodicTask[],
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {}

  /** Enqueues every task whose slot changed since the last tick (the first tick enqueues all). */
  async tick(): Promise<void> {
    const now = this.clock.now();
    for (const task of this.tasks) {
      const slot = periodSlot(now, task.everySeconds);
      if (this.lastSlot.get(task.job.name) === slot) continue;
      await this.jobs.enqueue(
        task.job,
        {},
        { singletonKey: `${task.job.name}:${slot}`, id: periodJobId(task.job.name, slot) },
      );
      this.lastSlot.set(task.job.name, slot);
    }
  }

  /** Ticks every `intervalMs` of real time (a slot change on the app clock is what enqueues). */
  start(intervalMs = 5_000): void {
    if (this.timer || this.tasks.length === 0) return;
    const run = () => {
      this.running ??= this.tick()
        .catch((error: unknown) => this.log.warn({ err: error }, 'periodic job scheduling failed'))
        .finally(() => (this.running = undefined));
    };
    run();
    this.timer = setInterval(run, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
