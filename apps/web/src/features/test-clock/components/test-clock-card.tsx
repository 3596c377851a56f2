import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { formatDateTime } from '../../../lib/format';
import { useAdvanceTestClock } from '../api/advance-test-clock';
import { useTestClock } from '../api/get-test-clock';
import { describeRun, plural } from '../logic/describe-run';

const STEPS = [
  { days: 1, label: '+1 day' },
  { days: 7, label: '+1 week' },
  { days: 31, label: '+31 days' },
  { days: 366, label: '+1 year' },
];

/**
 * The organization's test clock (servers outside production only; elsewhere the card is not shown).
 * Moving it forward runs the renewals, dunning retries and expiries that became due, at once.
 */
export function TestClockCard({ organizationId }: { organizationId: string }) {
  const clock = useTestClock(organizationId);
  const advance = useAdvanceTestClock(organizationId);
  const [lastRun, setLastRun] = useState<string | null>(null);
  if (!clock.data) return null;
  const ahead = Math.round(clock.data.offset_seconds / 86_400);
  return (
    <Card aria-labelledby="test-clock-title">
      <CardTitle>
        <span id="test-clock-title">Test clock</span>
      </CardTitle>
      <p className="mb-3 text-sm text-slate-600">
        Outside production, this organization&apos;s time can move forward to show renewals, failed payments and
        cancellations at period end in seconds. Other organizations are not affected; it cannot move back.
      </p>
      <p className="mb-3 text-sm text-slate-900" aria-live="polite">
        Organization time: <strong>{formatDateTime(clock.data.now)}</strong>
        {ahead > 0 ? ` (${plural(ahead, 'day', 'days')} ahead)` : ''}
      </p>
      <div className="flex flex-wrap gap-2" role="group" aria-label="Move the clock forward">
        {STEPS.map((step) => (
          <Button
            key={step.days}
            variant="secondary"
            size="sm"
            disabled={advance.isPending}
            onClick={() =>
              advance.mutate(step.days, {
                onSuccess: (run) => setLastRun(`Moved ${step.label.slice(1)}: ${describeRun(run)}`),
              })
            }
          >
            {step.label}
          </Button>
        ))}
      </div>
      {lastRun ? (
        <p className="mt-3 text-sm text-slate-700" role="status">
          {lastRun}
        </p>
      ) : null}
      {advance.error ? (
        <div className="mt-3">
          <ApiErrorAlert error={advance.error} />
        </div>
      ) : null}
    </Card>
  );
}
