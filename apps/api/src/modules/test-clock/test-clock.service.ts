import type { Context } from '../../platform/context.js';
import { NotPermitted, validationError } from '../../platform/http/errors.js';
import { runIn } from '../../platform/jobs/queue.js';
import { OffsetClock } from '../../platform/clock.js';
import { clockOffsetSeconds, serverClock } from '../../platform/test-clock.js';
import { findVisibleOrganization } from '../organizations/organizations.repository.js';
import { resolveOrganizationForWrite } from '../organizations/organizations.service.js';
import type { OrganizationRow } from '../organizations/organizations.repository.js';
import { runOrganizationDueWork } from '../subscriptions/subscriptions.renewal.js';
import { addClockOffset } from './test-clock.repository.js';
import type { TestClockAdvanceInput } from './test-clock.schemas.js';

/**
 * The test clock of an organization (outside production): how far it runs ahead of the server, and the
 * organization's time. Advancing commits the new offset first, then runs everything that became due on
 * the organization's clock — renewals, charges and dunning retries, checkout expiry — each in its own
 * short transaction, exactly as the periodic job would (so a run interrupted half-way is finished by it).
 */
export interface TestClockView {
  organization_id: string;
  now: Date;
  offset_seconds: number;
}

export async function getTestClock(ctx: Context, organizationId: string | undefined): Promise<TestClockView> {
  const organization = await readableOrganization(ctx, organizationId);
  const offset = await clockOffsetSeconds(ctx.db, organization.id);
  return { organization_id: organization.id, now: shiftedNow(ctx, offset), offset_seconds: offset };
}

export async function advanceTestClock(ctx: Context, input: TestClockAdvanceInput) {
  const run = ctx.transactions ?? runIn(ctx);
  const organization = await run.transaction((tx) => resolveOrganizationForWrite(tx, input.organization_id));
  return advanceOrganizationClock(ctx, organization.id, input.days * 86_400 + input.hours * 3600 + input.seconds);
}

/** Moves one organization's clock (the route and `tessera clock advance`); `ctx.db` is the pool. */
export async function advanceOrganizationClock(ctx: Context, organizationId: string, seconds: number) {
  if (!ctx.config.devMode) throw new NotPermitted('Test clocks do not exist in production.');
  const run = ctx.transactions ?? runIn(ctx);
  const offset = await run.transaction((tx) =>
    addClockOffset(tx.db, organizationId, seconds, serverClock(tx.clock).now()),
  );
  const now = shiftedNow(ctx, offset);
  // The caller's clock was read before the move: the due work starts again from the server's clock.
  const work = await runOrganizationDueWork({ ...ctx, clock: serverClock(ctx.clock) }, run, organizationId);
  return { organization_id: organizationId, now, offset_seconds: offset, ...work };
}

/** The organization's time for a known offset (whatever clock the caller is on). */
function shiftedNow(ctx: Context, offsetSeconds: number): Date {
  return new OffsetClock(serverClock(ctx.clock), offsetSeconds * 1000).now();
}

async function readableOrganization(ctx: Context, organizationId: string | undefined): Promise<OrganizationRow> {
  const id = ctx.subject.kind === 'organization' ? ctx.subject.organizationId : organizationId;
  if (!id) throw validationError(['query', 'organization_id'], 'organization_id is required.', 'missing');
  const organization = await findVisibleOrganization(ctx.db, ctx.subject, id);
  if (!organization) throw validationError(['query', 'organization_id'], 'Organization not found.');
  return organization;
}
