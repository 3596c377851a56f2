import { describe, expect, it } from 'vitest';
import { availableActions, describeStatus } from './subscription-status';

const live = {
  status: 'active' as const,
  cancel_at_period_end: false,
  ends_at: null as string | null,
  ended_at: null as string | null,
};
const canceling = { ...live, cancel_at_period_end: true, ends_at: '2026-02-15T12:00:00.000Z' };
const ended = {
  ...live,
  status: 'canceled' as const,
  ends_at: '2026-01-20T12:00:00.000Z',
  ended_at: '2026-01-20T12:00:00.000Z',
};

describe('describeStatus', () => {
  it.each([
    [live, 'Active', 'success'],
    [{ ...live, status: 'past_due' as const }, 'Past due', 'danger'],
    [{ ...live, status: 'trialing' as const }, 'Trial', 'info'],
    [ended, 'Canceled', 'neutral'],
  ])('%j → %s', (subscription, label, tone) => {
    expect(describeStatus(subscription)).toEqual({ label, tone });
  });

  it('says when a subscription set to cancel ends', () => {
    expect(describeStatus(canceling)).toMatchObject({
      label: expect.stringMatching(/^Cancels .*2026/),
      tone: 'warning',
    });
  });
});

describe('availableActions', () => {
  it('offers cancel, revoke and product change on a live subscription', () => {
    expect(availableActions(live)).toEqual({ cancel: true, uncancel: false, revoke: true, changeProduct: true });
  });

  it('offers resume and revoke on a subscription set to cancel', () => {
    expect(availableActions(canceling)).toEqual({ cancel: false, uncancel: true, revoke: true, changeProduct: false });
  });

  it('offers nothing once ended', () => {
    expect(availableActions(ended)).toEqual({ cancel: false, uncancel: false, revoke: false, changeProduct: false });
  });

  it('offers nothing on an incomplete subscription', () => {
    expect(Object.values(availableActions({ ...live, status: 'incomplete' })).some(Boolean)).toBe(false);
  });
});
