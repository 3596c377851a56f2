import { z } from 'zod/v4';

/** A bounded step: at most ten years per call, in whole days, hours or seconds (at least one). */
export const TestClockAdvance = z
  .object({
    organization_id: z
      .uuid()
      .nullish()
      .meta({ description: 'The organization (users only; an organization token moves its own).' }),
    days: z.int().min(0).max(3660).default(0),
    hours: z.int().min(0).max(87_840).default(0),
    seconds: z.int().min(0).max(316_224_000).default(0),
  })
  .refine((step) => step.days * 86_400 + step.hours * 3600 + step.seconds > 0, {
    message: 'Advance by at least one second.',
    path: ['days'],
  })
  .refine((step) => step.days * 86_400 + step.hours * 3600 + step.seconds <= 316_224_000, {
    message: 'Advance by at most ten years at once.',
    path: ['days'],
  })
  .meta({ id: 'TestClockAdvance' });
export type TestClockAdvanceInput = z.output<typeof TestClockAdvance>;

export const TestClockQuery = z.object({
  organization_id: z.uuid().optional().meta({ description: 'The organization (users only).' }),
});

export const TestClock = z
  .object({
    organization_id: z.uuid(),
    now: z.iso.datetime({ offset: true }).meta({ description: "The organization's current time." }),
    offset_seconds: z.int().meta({ description: "How far the organization's clock runs ahead of the server's." }),
  })
  .meta({ id: 'TestClock' });

export const TestClockAdvanced = TestClock.extend({
  renewals: z.int().meta({ description: 'Subscription periods renewed, or subscriptions ended at period end.' }),
  charge_attempts: z.int().meta({ description: 'Renewal charges and dunning retries attempted.' }),
  checkouts_expired: z.int(),
}).meta({ id: 'TestClockAdvanced' });
