import { describe, expect, it } from 'vitest';
import { trialDraftOf, trialFields } from './trials';

describe('trialDraftOf', () => {
  it('starts from the saved trial, or none with 14 ready to pick', () => {
    expect(trialDraftOf({ trial_interval: 'week', trial_interval_count: 2 })).toEqual({ interval: 'week', count: '2' });
    expect(trialDraftOf({ trial_interval: null, trial_interval_count: null })).toEqual({
      interval: 'none',
      count: '14',
    });
    expect(trialDraftOf()).toEqual({ interval: 'none', count: '14' });
  });
});

describe('trialFields', () => {
  it.each([
    [{ interval: 'none', count: '14' }, { trial_interval: null, trial_interval_count: null }, null],
    [{ interval: 'day', count: ' 14 ' }, { trial_interval: 'day', trial_interval_count: 14 }, null],
    [{ interval: 'month', count: '1' }, { trial_interval: 'month', trial_interval_count: 1 }, null],
    [
      { interval: 'day', count: '0' },
      { trial_interval: 'day', trial_interval_count: null },
      'Enter a whole number from 1.',
    ],
    [
      { interval: 'day', count: '1.5' },
      { trial_interval: 'day', trial_interval_count: null },
      'Enter a whole number from 1.',
    ],
    [
      { interval: 'year', count: '' },
      { trial_interval: 'year', trial_interval_count: null },
      'Enter a whole number from 1.',
    ],
  ] as const)('%j → %j', (draft, fields, error) => {
    expect(trialFields(draft)).toEqual({ fields, error });
  });
});
