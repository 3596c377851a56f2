import type { z } from 'zod/v4';
import { iso } from '../../platform/http/schemas.js';
import type { TestClock, TestClockAdvanced } from './test-clock.schemas.js';
import type { TestClockView } from './test-clock.service.js';

export function serializeTestClock(view: TestClockView): z.output<typeof TestClock> {
  return { organization_id: view.organization_id, now: iso(view.now), offset_seconds: view.offset_seconds };
}

export function serializeTestClockAdvanced(
  view: TestClockView & { renewals: number; charge_attempts: number; checkouts_expired: number },
): z.output<typeof TestClockAdvanced> {
  return {
    ...serializeTestClock(view),
    renewals: view.renewals,
    charge_attempts: view.charge_attempts,
    checkouts_expired: view.checkouts_expired,
  };
}
