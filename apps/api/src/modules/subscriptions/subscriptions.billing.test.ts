import { describe, expect, it } from 'vitest';
import { nextRetryAt } from './subscriptions.billing.js';

const d = (iso: string) => new Date(iso);

describe('nextRetryAt', () => {
  const now = d('2026-01-01T00:00:00Z');
  it.each([
    [1, 'card_declined', '2026-01-03T00:00:00.000Z'],
    [2, 'card_declined', '2026-01-06T00:00:00.000Z'],
    [3, 'insufficient_funds', '2026-01-08T00:00:00.000Z'],
    [4, 'card_declined', '2026-01-08T00:00:00.000Z'],
    [5, 'card_declined', null],
    [1, 'stolen_card', null],
    [1, 'expired_card', null],
  ])('failure %i (%s)', (failures, reason, expected) =>
    expect(nextRetryAt(failures, reason, now)?.toISOString() ?? null).toBe(expected),
  );
});
