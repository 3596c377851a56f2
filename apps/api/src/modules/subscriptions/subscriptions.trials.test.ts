import { describe, expect, it } from 'vitest';
import { checkoutTrial, trialEnd, trialIssue, trialReminderAt, type TrialInterval } from './subscriptions.trials.js';

describe('trialEnd', () => {
  const cases: [string, TrialInterval, number, string][] = [
    ['2026-01-15T12:00:00.000Z', 'day', 14, '2026-01-29T12:00:00.000Z'],
    ['2026-02-20T08:00:00.000Z', 'day', 14, '2026-03-06T08:00:00.000Z'],
    ['2028-02-20T08:00:00.000Z', 'day', 14, '2028-03-05T08:00:00.000Z'],
    ['2026-12-25T00:00:00.000Z', 'day', 7, '2027-01-01T00:00:00.000Z'],
    ['2026-01-15T12:00:00.000Z', 'week', 2, '2026-01-29T12:00:00.000Z'],
    ['2026-01-15T12:00:00.000Z', 'day', 730, '2028-01-15T12:00:00.000Z'],
    ['2026-01-15T12:00:00.000Z', 'month', 1, '2026-02-15T12:00:00.000Z'],
    ['2026-01-31T00:00:00.000Z', 'month', 1, '2026-02-28T00:00:00.000Z'],
    ['2028-01-31T09:30:00.000Z', 'month', 1, '2028-02-29T09:30:00.000Z'],
    ['2026-01-31T00:00:00.000Z', 'month', 3, '2026-04-30T00:00:00.000Z'],
    ['2026-03-31T00:00:00.000Z', 'month', 11, '2027-02-28T00:00:00.000Z'],
    ['2026-11-30T23:59:59.999Z', 'month', 2, '2027-01-30T23:59:59.999Z'],
    ['2028-02-29T00:00:00.000Z', 'year', 1, '2029-02-28T00:00:00.000Z'],
    ['2028-02-29T00:00:00.000Z', 'month', 12, '2029-02-28T00:00:00.000Z'],
    ['2027-02-28T00:00:00.000Z', 'year', 1, '2028-02-28T00:00:00.000Z'],
    ['2026-01-15T12:00:00.000Z', 'year', 2, '2028-01-15T12:00:00.000Z'],
  ];
  it.each(cases)('%s + %s × %i → %s', (start, interval, count, expected) => {
    expect(trialEnd(new Date(start), { interval, count }).toISOString()).toBe(expected);
  });
});

describe('trialIssue', () => {
  const cases: [TrialInterval | null, number | null, boolean, string | null][] = [
    [null, null, true, null],
    [null, null, false, null],
    ['day', 14, true, null],
    ['day', 730, true, null],
    ['week', 104, true, null],
    ['month', 24, true, null],
    ['year', 2, true, null],
    ['day', 731, true, 'trial_interval_count'],
    ['week', 105, true, 'trial_interval_count'],
    ['month', 25, true, 'trial_interval_count'],
    ['year', 10, true, 'trial_interval_count'],
    ['day', 0, true, 'trial_interval_count'],
    ['month', -1, true, 'trial_interval_count'],
    ['day', 1.5, true, 'trial_interval_count'],
    ['day', null, true, 'trial_interval_count'],
    [null, 14, true, 'trial_interval'],
    ['day', 14, false, 'trial_interval'],
  ];
  it.each(cases)('%s × %s (recurring %s) → %s', (interval, count, recurring, field) => {
    expect(trialIssue(interval, count, recurring)?.field ?? null).toBe(field);
  });
});

describe('checkoutTrial', () => {
  const product = { interval: 'day' as const, count: 14 };
  const none = { interval: null, count: null };
  it.each([
    ['the product’s trial', true, product, none, false, { interval: 'day', count: 14 }, null],
    [
      'the checkout’s own',
      true,
      product,
      { interval: 'month' as const, count: 1 },
      false,
      { interval: 'month', count: 1 },
      null,
    ],
    [
      'a checkout trial on a product without one',
      true,
      none,
      { interval: 'week' as const, count: 1 },
      false,
      { interval: 'week', count: 1 },
      null,
    ],
    ['none on a product without one', true, none, none, false, null, null],
    ['none for a one-time product', false, product, none, false, null, null],
    ['none when already redeemed, and says so', true, product, none, true, null, 'already_redeemed'],
    ['redeemed without any trial: nothing to say', true, none, none, true, null, null],
  ] as const)('%s', (_name, recurring, p, c, redeemed, trial, unavailable) => {
    expect(checkoutTrial({ recurring, product: p, checkout: c, redeemed })).toEqual({ trial, unavailable });
  });
});

describe('trialReminderAt', () => {
  const cases: [string, string, string | null][] = [
    ['2026-01-15T12:00:00.000Z', '2026-01-29T12:00:00.000Z', '2026-01-26T12:00:00.000Z'],
    ['2026-01-15T12:00:00.000Z', '2026-02-15T12:00:00.000Z', '2026-02-12T12:00:00.000Z'],
    ['2026-01-15T12:00:00.000Z', '2026-01-18T12:00:00.000Z', '2026-01-17T12:00:00.000Z'],
    ['2026-01-15T12:00:00.000Z', '2026-01-17T12:00:00.000Z', '2026-01-16T12:00:00.000Z'],
    ['2026-01-15T12:00:00.000Z', '2026-01-16T12:00:00.000Z', null],
  ];
  it.each(cases)('trial %s → %s: reminded %s', (start, end, expected) => {
    expect(trialReminderAt(new Date(start), new Date(end))?.toISOString() ?? null).toBe(expected);
  });
});
