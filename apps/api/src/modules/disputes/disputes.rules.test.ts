import { describe, expect, it } from 'vitest';
import type { DisputeStatus } from '../../db/tables/payment-attempts.js';
import {
  acceptDecision,
  afterProcessorReport,
  DISPUTE_STATUSES,
  fromStripeStatus,
  isClosed,
  isResolved,
  splitDisputedTotal,
} from './disputes.rules.js';

describe('isClosed / isResolved', () => {
  it.each<[DisputeStatus, boolean, boolean]>([
    ['prevented', true, false],
    ['early_warning', false, false],
    ['needs_response', false, false],
    ['under_review', false, false],
    ['lost', true, true],
    ['won', true, true],
  ])('%s: closed %s, resolved %s', (status, closed, resolved) => {
    expect(isClosed(status)).toBe(closed);
    expect(isResolved(status)).toBe(resolved);
  });
});

describe('fromStripeStatus', () => {
  it.each([
    ['warning_needs_response', 'early_warning'],
    ['warning_under_review', 'early_warning'],
    ['warning_closed', 'prevented'],
    ['needs_response', 'needs_response'],
    ['under_review', 'under_review'],
    ['won', 'won'],
    ['lost', 'lost'],
    ['prevented', 'prevented'],
    ['something_new', 'needs_response'],
  ])('%s → %s', (stripe, ours) => {
    expect(fromStripeStatus(stripe)).toBe(ours);
  });
});

describe('afterProcessorReport', () => {
  it.each<[DisputeStatus, DisputeStatus, DisputeStatus]>([
    ['early_warning', 'needs_response', 'needs_response'],
    ['needs_response', 'under_review', 'under_review'],
    ['under_review', 'won', 'won'],
    ['needs_response', 'lost', 'lost'],
    // A closed dispute keeps its outcome: a late or replayed event changes nothing.
    ['lost', 'under_review', 'lost'],
    ['won', 'lost', 'won'],
    ['lost', 'won', 'lost'],
    // A prevented dispute escalated after all is reopened; closing it again keeps it prevented.
    ['prevented', 'needs_response', 'needs_response'],
    ['prevented', 'lost', 'prevented'],
  ])('%s, reported %s → %s', (current, reported, next) => {
    expect(afterProcessorReport(current, reported)).toBe(next);
  });

  it('covers every pair without leaving the closed set', () => {
    for (const current of DISPUTE_STATUSES) {
      for (const reported of DISPUTE_STATUSES) {
        expect(DISPUTE_STATUSES).toContain(afterProcessorReport(current, reported));
      }
    }
  });
});

describe('acceptDecision', () => {
  it.each<[DisputeStatus, Date | null, string]>([
    ['needs_response', null, 'close_with_processor'],
    ['early_warning', null, 'not_open'],
    ['under_review', null, 'not_open'],
    ['won', null, 'not_open'],
    ['lost', null, 'not_open'],
    ['prevented', null, 'not_open'],
    ['lost', new Date('2026-01-01T00:00:00Z'), 'already_accepted'],
  ])('%s (accepted %s) → %s', (status, acceptedAt, decision) => {
    expect(acceptDecision({ status, accepted_at: acceptedAt })).toBe(decision);
  });
});

describe('splitDisputedTotal', () => {
  it.each([
    [1250, { total_amount: 1250, tax_amount: 250 }, { amount: 1000, tax_amount: 250 }],
    [625, { total_amount: 1250, tax_amount: 250 }, { amount: 500, tax_amount: 125 }],
    [333, { total_amount: 1000, tax_amount: 100 }, { amount: 300, tax_amount: 33 }],
    [1000, { total_amount: 1000, tax_amount: 0 }, { amount: 1000, tax_amount: 0 }],
    [5000, { total_amount: 1000, tax_amount: 100 }, { amount: 900, tax_amount: 100 }],
    [0, { total_amount: 0, tax_amount: 0 }, { amount: 0, tax_amount: 0 }],
  ])('%s of %o → %o', (total, order, split) => {
    expect(splitDisputedTotal(total, order)).toEqual(split);
  });
});
