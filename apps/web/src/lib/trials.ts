import type { TrialInterval } from '@tessera/sdk';

/**
 * A free trial's length as a form edits it (docs/trials.md): an interval and a count, or none. The API
 * judges the bounds (1 to two years' worth); the form only asks for a whole number from 1.
 */
export interface TrialDraft {
  interval: TrialInterval | 'none';
  count: string;
}

export const TRIAL_INTERVALS: readonly { value: TrialInterval; label: string }[] = [
  { value: 'day', label: 'Days' },
  { value: 'week', label: 'Weeks' },
  { value: 'month', label: 'Months' },
  { value: 'year', label: 'Years' },
];

export function trialDraftOf(source?: {
  trial_interval?: TrialInterval | null;
  trial_interval_count?: number | null;
}): TrialDraft {
  if (!source?.trial_interval || !source.trial_interval_count) return { interval: 'none', count: '14' };
  return { interval: source.trial_interval, count: String(source.trial_interval_count) };
}

export interface TrialFields {
  trial_interval: TrialInterval | null;
  trial_interval_count: number | null;
}

/** The body's two fields (both null: no trial), or what to fix in the count. */
export function trialFields(draft: TrialDraft): { fields: TrialFields; error: string | null } {
  if (draft.interval === 'none') return { fields: { trial_interval: null, trial_interval_count: null }, error: null };
  const text = draft.count.trim();
  const count = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(count) || count < 1)
    return {
      fields: { trial_interval: draft.interval, trial_interval_count: null },
      error: 'Enter a whole number from 1.',
    };
  return { fields: { trial_interval: draft.interval, trial_interval_count: count }, error: null };
}
