import { z } from 'zod/v4';
import { defineJob, runIn } from '../../platform/jobs/queue.js';
import { runCycle, runGrant, runRevoke, runUpdate } from './benefit-grants.engine.js';
import type { BenefitGrantRow } from '../benefits/benefits.repository.js';
import { findGrantedGrantsOfBenefit, findGrantedGrantsOfCustomer } from './benefit-grants.repository.js';

const GrantKeyData = z.object({
  customer_id: z.uuid(),
  benefit_id: z.uuid(),
  subscription_id: z.uuid().nullable(),
  order_id: z.uuid().nullable(),
});
const GrantIdData = z.object({ grant_id: z.uuid() });

/** Retried with backoff from 2 s (the reference's worker minimum), 10 times. */
const retries = { retryLimit: 10, retryDelaySeconds: 2, retryBackoff: true } as const;

export const grantBenefitJob = defineJob({
  name: 'benefit_grants.grant',
  schema: GrantKeyData,
  transaction: false,
  ...retries,
  handle: (ctx, data, run) => runGrant(ctx, data, run ?? runIn(ctx)),
});

export const revokeBenefitJob = defineJob({
  name: 'benefit_grants.revoke',
  schema: GrantKeyData,
  transaction: false,
  ...retries,
  handle: (ctx, data, run) => runRevoke(ctx, data, run ?? runIn(ctx)),
});

/** `revoke_account_id`: the customer moved the grant from that account (portal PATCH). */
export const updateGrantJob = defineJob({
  name: 'benefit_grants.update',
  schema: GrantIdData.extend({ revoke_account_id: z.string().optional() }),
  transaction: false,
  ...retries,
  handle: (ctx, data, run) => runUpdate(ctx, data.grant_id, run ?? runIn(ctx), fetch, data.revoke_account_id),
});

export const cycleGrantJob = defineJob({
  name: 'benefit_grants.cycle',
  schema: GrantIdData.extend({ period_start: z.iso.datetime({ offset: true }).optional() }),
  ...retries,
  handle: (ctx, data) => runCycle(ctx, data.grant_id, data.period_start ? new Date(data.period_start) : undefined),
});

/** A benefit's properties changed: one update job per granted grant (fanned out off the request). */
export const updateBenefitGrantsJob = defineJob({
  name: 'benefit_grants.update_benefit',
  schema: z.object({ benefit_id: z.uuid() }),
  ...retries,
  handle: async (ctx, data) => {
    for (const grant of await findGrantedGrantsOfBenefit(ctx.db, data.benefit_id)) {
      await ctx.jobs.enqueue(updateGrantJob, { grant_id: grant.id });
    }
  },
});

const keyOf = (grant: BenefitGrantRow) => ({
  customer_id: grant.customer_id,
  benefit_id: grant.benefit_id,
  subscription_id: grant.subscription_id,
  order_id: grant.order_id,
});

/** A benefit was deleted: every granted grant of it is revoked (the reference's `benefit.delete`). */
export const revokeBenefitGrantsJob = defineJob({
  name: 'benefit_grants.revoke_benefit',
  schema: z.object({ benefit_id: z.uuid() }),
  ...retries,
  handle: async (ctx, data) => {
    for (const grant of await findGrantedGrantsOfBenefit(ctx.db, data.benefit_id)) {
      await ctx.jobs.enqueue(revokeBenefitJob, keyOf(grant));
    }
  },
});

/** A customer was deleted: every granted grant of theirs is revoked (`benefit.revoke_customer`). */
export const revokeCustomerGrantsJob = defineJob({
  name: 'benefit_grants.revoke_customer',
  schema: z.object({ customer_id: z.uuid() }),
  ...retries,
  handle: async (ctx, data) => {
    for (const grant of await findGrantedGrantsOfCustomer(ctx.db, data.customer_id)) {
      await ctx.jobs.enqueue(revokeBenefitJob, keyOf(grant));
    }
  },
});

export const benefitGrantJobs = [
  grantBenefitJob,
  revokeBenefitJob,
  updateGrantJob,
  cycleGrantJob,
  updateBenefitGrantsJob,
  revokeBenefitGrantsJob,
  revokeCustomerGrantsJob,
];
