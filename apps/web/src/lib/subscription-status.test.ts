import { describe, expect, it } from 'vitest';
import { availableActions, cancellationReasonLabel, cancellationReasons, describeStatus } from './subscription-status';

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
  ])('%j → %s for the seller', (subscription, label, tone) => {
    expect(describeStatus(subscription, 'seller')).toEqual({ label, tone });
  });

  it.each([
    [{ ...live, status: 'past_due' as const }, 'Payment overdue', 'danger'],
    [{ ...live, status: 'incomplete' as const }, 'Awaiting payment', 'warning'],
    [ended, 'Canceled', 'neutral'],
  ])('%j → %s for the customer', (subscription, label, tone) => {
    expect(describeStatus(subscription, 'customer')).toEqual({ label, tone });
  });

  it('says when a trial ends', () => {
    const trial = { ...live, status: 'trialing' as const, trial_end: '2026-01-29T12:00:00.000Z' };
    expect(describeStatus(trial, 'seller')).toMatchObject({
      label: expect.stringMatching(/^Trial until .*2026$/),
      tone: 'info',
    });
  });

  it('says when a subscription set to cancel ends, in each reader’s words', () => {
    expect(describeStatus(canceling, 'seller')).toMatchObject({
      label: expect.stringMatching(/^Cancels .*2026/),
      tone: 'warning',
    });
    expect(describeStatus(canceling, 'customer')).toMatchObject({
      label: expect.stringMatching(/^Ends .*2026/),
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
    const canceledTrial = { ...canceling, status: 'trialing' as const };
    expect(availableActions(canceledTrial)).toMatchObject({ uncancel: true });
  });

  it('offers nothing once ended', () => {
    expect(availableActions(ended)).toEqual({ cancel: false, uncancel: false, revoke: false, changeProduct: false });
  });

  it('offers nothing on an incomplete subscription', () => {
    expect(Object.values(availableActions({ ...live, status: 'incomplete' })).some(Boolean)).toBe(false);
  });
});

describe('cancellationReasons', () => {
  it('offers every reason, in the same order, in each reader’s words', () => {
    const seller = cancellationReasons('seller');
    const customer = cancellationReasons('customer');
    expect(seller.map((reason) => reason.value)).toEqual(customer.map((reason) => reason.value));
    expect(seller.find((reason) => reason.value === 'unused')?.label).toBe('Not used enough');
    expect(customer.find((reason) => reason.value === 'unused')?.label).toBe('I don’t use it enough');
    expect(seller.at(-1)).toEqual({ value: 'other', label: 'Other' });
  });

  it('names a stored reason', () => {
    expect(cancellationReasonLabel('too_complex', 'seller')).toBe('Too complex');
    expect(cancellationReasonLabel('too_complex', 'customer')).toBe('Too complicated');
  });
});
