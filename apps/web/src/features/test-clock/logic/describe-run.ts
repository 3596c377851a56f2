import type { TestClockAdvanced } from '@tessera/sdk';

export function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

/** What one move ran, in words. */
export function describeRun(run: Pick<TestClockAdvanced, 'renewals' | 'charge_attempts' | 'checkouts_expired'>) {
  return (
    `${plural(run.renewals, 'renewal', 'renewals')}, ` +
    `${plural(run.charge_attempts, 'charge attempt', 'charge attempts')}, ` +
    `${plural(run.checkouts_expired, 'checkout expired', 'checkouts expired')}.`
  );
}
