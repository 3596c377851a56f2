import { describe, expect, it } from 'vitest';
import { describeRun } from './describe-run';

describe('describeRun', () => {
  it('says what a move of the clock ran, with singulars and plurals', () => {
    expect(describeRun({ renewals: 1, charge_attempts: 2, checkouts_expired: 0 })).toBe(
      '1 renewal, 2 charge attempts, 0 checkouts expired.',
    );
    expect(describeRun({ renewals: 12, charge_attempts: 1, checkouts_expired: 1 })).toBe(
      '12 renewals, 1 charge attempt, 1 checkout expired.',
    );
  });
});
