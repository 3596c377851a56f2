import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { ManualClock } from '../clock.js';
import { PeriodicScheduler, periodJobId, periodSlot } from './periodic.js';
import { defineJob, type Jobs } from './queue.js';

const job = defineJob<Record<string, never>>({ name: 'test.tick', schema: z.object({}), handle: async () => {} });

function recorder() {
  const sent: { name: string; key: string | undefined }[] = [];
  const jobs: Jobs = {
    enqueue: async (definition, _data, options) => {
      sent.push({ name: definition.name, key: options?.singletonKey });
      return 'id';
    },
    enqueueMany: async () => {},
  };
  return { sent, jobs };
}

describe('PeriodicScheduler', () => {
  it('enqueues once per period of the app clock, keyed by the slot', async () => {
    const clock = new ManualClock('2026-01-15T12:00:10.000Z');
    const { sent, jobs } = recorder();
    const scheduler = new PeriodicScheduler(jobs, clock, [{ job, everySeconds: 60 }], console);
    await scheduler.tick();
    await scheduler.tick();
    clock.advance(30_000);
    await scheduler.tick();
    expect(sent).toHaveLength(1);
    clock.advance(30_000);
    await scheduler.tick();
    clock.advance(10 * 60_000);
    await scheduler.tick();
    const slot = periodSlot(new Date('2026-01-15T12:00:10.000Z'), 60);
    expect(sent).toEqual([
      { name: 'test.tick', key: `test.tick:${slot}` },
      { name: 'test.tick', key: `test.tick:${slot + 1}` },
      { name: 'test.tick', key: `test.tick:${slot + 11}` },
    ]);
  });

  it('starts and stops without leaking timers', async () => {
    const { sent, jobs } = recorder();
    const scheduler = new PeriodicScheduler(jobs, new ManualClock(), [{ job, everySeconds: 60 }], console);
    scheduler.start(10);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await scheduler.stop();
    expect(sent).toHaveLength(1);
  });
});

describe('periodJobId', () => {
  it('is a uuid that every worker derives alike for one slot, and another for another slot or job', () => {
    const id = periodJobId('webhooks.sweep', 29_000_000);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(periodJobId('webhooks.sweep', 29_000_000)).toBe(id);
    expect(periodJobId('webhooks.sweep', 29_000_001)).not.toBe(id);
    expect(periodJobId('checkouts.expire', 29_000_000)).not.toBe(id);
  });
});
