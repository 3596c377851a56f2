import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { JobDefinition, Jobs } from './queue.js';

/**
 * Periodic jobs without pg-boss's cron (disabled: it runs on wall-clock time, not the app clock). Every
 * worker ticks; each tick enqueues the job once per period slot of the app clock, with a singleton key
 * naming the slot, so several workers (and restarts) still enqueue it once per period.
 */
export interface PeriodicTask {
  job: JobDefinition<Record<string, never>>;
  everySeconds: number;
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
      await this.jobs.enqueue(task.job, {}, { singletonKey: `${task.job.name}:${slot}` });
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
