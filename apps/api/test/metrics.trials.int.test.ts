import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, checkoutFactory, confirmationToken, ADDRESS } from './factories/checkouts.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

/**
 * Trial metrics (docs/metrics.md) over trials started through checkouts and moved by the test clock,
 * every value by hand. The harness clock starts on 2026-01-15 12:00 UTC; trials last 14 days.
 *
 *   15 Jan 12:00  T1 (card) converts on 29 Jan; T2 (card) canceled during the trial, ends on 29 Jan;
 *                 T3 card-less, no card added, ends unpaid on 29 Jan; T5 (card) revoked on 20 Jan 12:00
 *   20 Jan 12:00  T4 (card) starts, still trialing on 1 Feb (its trial ends on 3 Feb)
 */
let server: TestServer;
let org: OrganizationFixture;
let withCard: string;
let cardless: string;

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  const response = await server.inject({ method, url, headers: bearer(org.token), ...(payload ? { payload } : {}) });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.statusCode === 204 ? null : json(response);
}

async function advanceTo(at: string): Promise<void> {
  const clock = await call('GET', '/v1/test-clock/');
  const seconds = Math.ceil((new Date(at).getTime() - new Date(clock.now).getTime()) / 1000);
  if (seconds > 0) await call('POST', '/v1/test-clock/advance', { seconds });
}

async function startTrial(productId: string, card: boolean): Promise<string> {
  const created = await checkoutFactory(server, org.organization.id, [productId]);
  const response = await server.inject({
    method: 'POST',
    url: `/v1/checkouts/client/${created.client_secret}/confirm`,
    payload: {
      customer_email: `buyer-${created.id.slice(0, 8)}@example.com`,
      customer_name: 'Sam Buyer',
      customer_billing_address: ADDRESS,
      ...(card ? { confirmation_token_id: await confirmationToken(server, CARDS.visa) } : {}),
    },
  });
  if (response.statusCode !== 200) throw new Error(`confirm: ${response.statusCode} ${response.body}`);
  const page = await call('GET', `/v1/subscriptions/?organization_id=${org.organization.id}&limit=100`);
  return page.items.find((s: { checkout_id: string }) => s.checkout_id === created.id).id;
}

const trialProduct = async (extra: Record<string, unknown> = {}) =>
  (
    await productFactory(server, org.organization.id, {
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 1200 }],
      trial_interval: 'day',
      trial_interval_count: 14,
      ...extra,
    } as never)
  ).product.id;

beforeAll(async () => {
  server = await startTestServer();
  org = await organizationFactory(server, { name: 'Trials' });
  withCard = await trialProduct();
  cardless = await trialProduct({ trial_requires_payment_method: false });
  const t1 = await startTrial(withCard, true);
  const t2 = await startTrial(withCard, true);
  await startTrial(cardless, false);
  const t5 = await startTrial(withCard, true);
  await call('PATCH', `/v1/subscriptions/${t2}`, { cancel_at_period_end: true });
  await advanceTo('2026-01-20T12:00:00Z');
  await call('DELETE', `/v1/subscriptions/${t5}`);
  const t4 = await startTrial(withCard, true);
  await advanceTo('2026-02-01T12:00:00Z');
  expect((await call('GET', `/v1/subscriptions/${t1}`)).status).toBe('active');
  expect((await call('GET', `/v1/subscriptions/${t2}`)).status).toBe('canceled');
  expect((await call('GET', `/v1/subscriptions/${t4}`)).status).toBe('trialing');
}, 120_000);
afterAll(() => server?.stop());

type Period = Record<string, number> & { timestamp: string };
const TRIAL_KEYS = ['new_trials', 'active_trials', 'trial_conversions', 'trial_conversion_rate'] as const;
const trialValues = (period: Period) => Object.fromEntries(TRIAL_KEYS.map((key) => [key, period[key]]));

async function metrics(query: string): Promise<{ periods: Period[]; totals: Record<string, number> }> {
  return call('GET', `/v1/metrics/?organization_id=${org.organization.id}&${query}`);
}

describe('trial metrics', () => {
  it('by day in UTC: started, active, converted and the rate over the trials that ended', async () => {
    const body = await metrics('start_date=2026-01-15&end_date=2026-01-31&interval=day');
    const day = (date: string) => body.periods.find((p) => p.timestamp.startsWith(date))!;
    expect(trialValues(day('2026-01-15'))).toEqual({
      new_trials: 4,
      active_trials: 4,
      trial_conversions: 0,
      trial_conversion_rate: 0,
    });
    expect(day('2026-01-19').active_trials).toBe(4);
    // T5 revoked (a trial ended, not converted), T4 started.
    expect(trialValues(day('2026-01-20'))).toEqual({
      new_trials: 1,
      active_trials: 4,
      trial_conversions: 0,
      trial_conversion_rate: 0,
    });
    // T1 converts; T2 (canceled) and T3 (no card) end: 1 of 3.
    expect(trialValues(day('2026-01-29'))).toEqual({
      new_trials: 0,
      active_trials: 1,
      trial_conversions: 1,
      trial_conversion_rate: 1 / 3,
    });
    // The converted trial is a paying subscription from then on, and only then.
    expect(day('2026-01-28')).toMatchObject({ active_subscriptions: 0, monthly_recurring_revenue: 0 });
    expect(day('2026-01-29')).toMatchObject({
      active_subscriptions: 1,
      monthly_recurring_revenue: 1200,
      new_subscriptions: 1,
    });
    expect(day('2026-01-31').active_trials).toBe(1);
    expect(body.totals).toMatchObject({ new_trials: 5, active_trials: 1, trial_conversions: 1 });
    expect(body.totals.trial_conversion_rate).toBeCloseTo(1 / 3 / 17);
  });

  it('by month and week', async () => {
    const month = await metrics('start_date=2026-01-01&end_date=2026-02-28&interval=month');
    expect(month.periods.map(trialValues)).toEqual([
      // Four trials ended in January (T5, T1, T2, T3), one converted.
      { new_trials: 5, active_trials: 1, trial_conversions: 1, trial_conversion_rate: 0.25 },
      // By its dates T4's trial is over on 3 February, so not active at February's end; still trialing
      // (undecided), it is not among the trials that ended either.
      { new_trials: 0, active_trials: 0, trial_conversions: 0, trial_conversion_rate: 0 },
    ]);
    const week = await metrics('start_date=2026-01-12&end_date=2026-02-01&interval=week');
    expect(week.periods.map(trialValues)).toEqual([
      { new_trials: 4, active_trials: 4, trial_conversions: 0, trial_conversion_rate: 0 },
      { new_trials: 1, active_trials: 4, trial_conversions: 0, trial_conversion_rate: 0 },
      { new_trials: 0, active_trials: 1, trial_conversions: 1, trial_conversion_rate: 1 / 3 },
    ]);
  });

  it('in Pacific/Kiritimati (UTC+14) the same instants fall on the next local days', async () => {
    const body = await metrics('start_date=2026-01-15&end_date=2026-01-31&interval=day&timezone=Pacific/Kiritimati');
    const day = (index: number) => trialValues(body.periods[index]!);
    expect(day(0)).toEqual({ new_trials: 0, active_trials: 0, trial_conversions: 0, trial_conversion_rate: 0 });
    expect(day(1)).toEqual({ new_trials: 4, active_trials: 4, trial_conversions: 0, trial_conversion_rate: 0 });
    expect(day(6)).toMatchObject({ new_trials: 1, active_trials: 4 }); // 21 January
    expect(day(15)).toEqual({ new_trials: 0, active_trials: 1, trial_conversions: 1, trial_conversion_rate: 1 / 3 });
  });

  it('filters: the card-less product, and one-time products have no trials', async () => {
    const product = await metrics(`start_date=2026-01-01&end_date=2026-01-31&interval=month&product_id=${cardless}`);
    expect(trialValues(product.periods[0]!)).toEqual({
      new_trials: 1,
      active_trials: 0,
      trial_conversions: 0,
      trial_conversion_rate: 0,
    });
    const oneTime = await metrics('start_date=2026-01-01&end_date=2026-01-31&interval=month&billing_type=one_time');
    expect(oneTime.totals).toMatchObject({ new_trials: 0, active_trials: 0, trial_conversions: 0 });
  });
});
