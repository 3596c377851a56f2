import { describe, expect, it } from 'vitest';
import {
  addMonthsAnchored,
  discountCovers,
  discountOn,
  expectedOutcome,
  percentageOff,
  roundHalfEvenRatio,
  trialEndOf,
  type Plan,
  type Scenario,
} from './model.js';

const at = (iso: string) => new Date(iso);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const monthly = (name: string, price: number): Plan => ({ name, interval: 'month', price });

describe('addMonthsAnchored', () => {
  it.each([
    ['2026-01-31T12:00:00Z', 1, '2026-02-28T12:00:00.000Z'],
    ['2026-01-31T12:00:00Z', 2, '2026-03-31T12:00:00.000Z'],
    ['2026-01-31T12:00:00Z', 3, '2026-04-30T12:00:00.000Z'],
    ['2028-01-30T12:00:00Z', 1, '2028-02-29T12:00:00.000Z'],
    ['2028-02-29T12:00:00Z', 12, '2029-02-28T12:00:00.000Z'],
    ['2028-02-29T12:00:00Z', 48, '2032-02-29T12:00:00.000Z'],
    ['2026-12-15T00:00:00Z', 1, '2027-01-15T00:00:00.000Z'],
  ])('%s + %i months = %s', (from, months, expected) => {
    expect(addMonthsAnchored(at(from), months).toISOString()).toBe(expected);
  });

  it('keeps an anchor day the month before could not hold', () => {
    expect(addMonthsAnchored(at('2026-02-28T12:00:00Z'), 1, 31).toISOString()).toBe('2026-03-31T12:00:00.000Z');
  });
});

describe('rounding', () => {
  it.each([
    [5, 1, 2, 2],
    [7, 1, 2, 4],
    [-5, 1, 2, -2],
    [10, 1, 3, 3],
    [10, 2, 3, 7],
    [5000, 2674800, 2678400, 4993],
  ])('round(%i × %i / %i) half to even = %i', (a, num, den, expected) => {
    expect(roundHalfEvenRatio(a, num, den)).toBe(expected);
  });

  it.each([
    [4996, 1250, 625],
    [5, 5000, 3],
    [1000, 2500, 250],
    [48004, 1250, 6001],
  ])('%i × %i bp rounds half away from zero to %i', (amount, bp, expected) => {
    expect(percentageOff(amount, bp)).toBe(expected);
  });

  it('caps a fixed discount at the amount', () => {
    expect(discountOn(1996, { type: 'fixed', amount: 2500 })).toBe(1996);
    expect(discountOn(4996, { type: 'fixed', amount: 2500 })).toBe(2500);
  });
});

describe('discountCovers', () => {
  const applied = at('2026-02-28T12:00:00Z'); // anchor day 30, clamped in February
  it.each([
    ['2026-02-28T12:00:00Z', true],
    ['2026-03-30T12:00:00Z', true],
    ['2026-04-30T12:00:00Z', true],
    ['2026-05-30T12:00:00Z', false],
    ['2026-01-30T12:00:00Z', false],
  ])('repeating 3 months from Feb 28 covers %s: %s', (start, covered) => {
    expect(discountCovers({ duration: 'repeating', months: 3 }, applied, at(start))).toBe(covered);
  });
  it('once covers only the first charge, forever every later one', () => {
    expect(discountCovers({ duration: 'once' }, applied, applied)).toBe(true);
    expect(discountCovers({ duration: 'once' }, applied, at('2026-03-30T12:00:00Z'))).toBe(false);
    expect(discountCovers({ duration: 'forever' }, applied, at('2030-03-30T12:00:00Z'))).toBe(true);
  });
});

describe('expectedOutcome', () => {
  const start = at('2026-01-15T12:00:00Z');
  const summary = (scenario: Scenario) => {
    const outcome = expectedOutcome(scenario);
    return {
      orders: outcome.orders.map((o) => [
        o.at.toISOString().slice(0, 10),
        o.billingReason,
        o.total,
        o.charged,
        o.status,
      ]),
      balance: outcome.creditBalance,
      status: outcome.subscription.status,
    };
  };

  it('a $50 → $20 downgrade one hour in (prorate): the credit applies in full, the excess is a balance', () => {
    expect(
      summary({
        start,
        plan: monthly('base', 5000),
        discount: null,
        discountAt: 'checkout',
        actions: [
          {
            at: new Date(start.getTime() + HOUR),
            action: { kind: 'change_product', to: monthly('down', 2000), behavior: 'prorate' },
          },
        ],
        horizon: at('2026-04-15T12:00:00Z'),
      }),
    ).toEqual({
      orders: [
        ['2026-01-15', 'subscription_create', 5000, 5000, 'paid'],
        // 2000 + 1997 (new price, 2674800 of 2678400 s) − 4993 (old price) = −996: 996 to the balance, paid.
        ['2026-02-15', 'subscription_cycle', 0, 0, 'paid'],
        ['2026-03-15', 'subscription_cycle', 2000, 1004, 'paid'],
        ['2026-04-15', 'subscription_cycle', 2000, 2000, 'paid'],
      ],
      balance: 0,
      status: 'active',
    });
  });

  it('the same downgrade taxed at 20 %: tax on each net; the credit goes to the balance with its tax', () => {
    expect(
      summary({
        start,
        plan: monthly('base', 5000),
        discount: null,
        discountAt: 'checkout',
        actions: [
          {
            at: new Date(start.getTime() + HOUR),
            action: { kind: 'change_product', to: monthly('down', 2000), behavior: 'prorate' },
          },
        ],
        horizon: at('2026-04-15T12:00:00Z'),
        taxBasisPoints: 2000,
      }),
    ).toEqual({
      orders: [
        ['2026-01-15', 'subscription_create', 6000, 6000, 'paid'],
        ['2026-02-15', 'subscription_cycle', 0, 0, 'paid'],
        // The credit 996 carried with its tax (199.2 → 199): 1195, which pays first of 2000 + 400 tax.
        ['2026-03-15', 'subscription_cycle', 2400, 1205, 'paid'],
        ['2026-04-15', 'subscription_cycle', 2400, 2400, 'paid'],
      ],
      balance: 0,
      status: 'active',
    });
  });

  it('the same downgrade with invoice: a credit order at once, the balance pays the next renewal first', () => {
    const outcome = expectedOutcome({
      start,
      plan: monthly('base', 5000),
      discount: null,
      discountAt: 'checkout',
      actions: [
        {
          at: new Date(start.getTime() + HOUR),
          action: { kind: 'change_product', to: monthly('down', 2000), behavior: 'invoice' },
        },
      ],
      horizon: at('2026-03-15T12:00:00Z'),
    });
    expect(outcome.orders.map((o) => [o.billingReason, o.subtotal, o.total, o.balanceApplied, o.charged])).toEqual([
      ['subscription_create', 5000, 5000, 0, 5000],
      ['subscription_update', 0, 0, 0, 0],
      ['subscription_cycle', 2000, 2000, 2000, 0],
      ['subscription_cycle', 2000, 2000, 996, 1004],
    ]);
    expect(outcome.orders[1]!.items).toEqual([
      { amount: -4993, proration: true },
      { amount: 1997, proration: true },
      { amount: 2996, proration: true, toBalance: true },
    ]);
    expect(outcome.creditBalance).toBe(0);
    expect(outcome.creditsCreated).toBe(2996);
    expect(outcome.creditsApplied).toBe(2996);
  });

  it('$10 → $1,000 half-way then cancel at period end: the upgrade is billed in a final order', () => {
    const mid = new Date(start.getTime() + 15.5 * DAY);
    const outcome = expectedOutcome({
      start,
      plan: monthly('base', 1000),
      discount: null,
      discountAt: 'checkout',
      actions: [
        { at: mid, action: { kind: 'change_product', to: monthly('up', 100_000), behavior: 'prorate' } },
        { at: new Date(mid.getTime() + HOUR), action: { kind: 'cancel_at_period_end' } },
      ],
      horizon: at('2026-04-15T12:00:00Z'),
    });
    expect(outcome.orders.map((o) => [o.billingReason, o.items, o.total])).toEqual([
      ['subscription_create', [{ amount: 1000, proration: false }], 1000],
      [
        'subscription_cycle',
        [
          { amount: -500, proration: true },
          { amount: 50_000, proration: true },
        ],
        49_500,
      ],
    ]);
    expect(outcome.subscription).toMatchObject({ status: 'canceled', endedAt: at('2026-02-15T12:00:00Z') });
  });

  it('a repeating three-month discount at checkout covers three payments', () => {
    const outcome = expectedOutcome({
      start,
      plan: monthly('base', 1000),
      discount: { type: 'fixed', amount: 300, duration: 'repeating', months: 3 },
      discountAt: 'checkout',
      actions: [],
      horizon: at('2026-04-15T12:00:00Z'),
    });
    expect(outcome.orders.map((o) => o.total)).toEqual([700, 700, 700, 1000]);
  });

  it('a once discount set mid-way applies to the next renewal only, with no proration', () => {
    const outcome = expectedOutcome({
      start,
      plan: monthly('base', 4996),
      discount: { type: 'percentage', basisPoints: 1250, duration: 'once' },
      discountAt: 'action',
      actions: [{ at: new Date(start.getTime() + 10 * DAY), action: { kind: 'set_discount' } }],
      horizon: at('2026-04-15T12:00:00Z'),
    });
    expect(outcome.orders.map((o) => [o.subtotal, o.discount, o.total])).toEqual([
      [4996, 0, 4996],
      [4996, 625, 4371],
      [4996, 0, 4996],
      [4996, 0, 4996],
    ]);
  });

  it('dunning exhausted: four retries at +2/+7/+14/+21 days, then the subscription ends', () => {
    const due = at('2026-02-15T12:00:00Z');
    const outcome = expectedOutcome({
      start,
      plan: monthly('base', 1000),
      discount: null,
      discountAt: 'checkout',
      actions: [{ at: new Date(due.getTime() - HOUR), action: { kind: 'card_declines' } }],
      horizon: at('2026-05-15T12:00:00Z'),
    });
    expect(outcome.payments.map((p) => [p.at.toISOString().slice(0, 10), p.status])).toEqual([
      ['2026-01-15', 'succeeded'],
      ['2026-02-15', 'failed'],
      ['2026-02-17', 'failed'],
      ['2026-02-22', 'failed'],
      ['2026-03-01', 'failed'],
      ['2026-03-08', 'failed'],
    ]);
    expect(outcome.orders.map((o) => o.status)).toEqual(['paid', 'pending']);
    expect(outcome.subscription).toMatchObject({ status: 'canceled', endedAt: at('2026-03-08T12:00:00Z') });
  });

  it('dunning exhausted gives back the balance the unpaid order used', () => {
    const due = at('2026-02-15T12:00:00Z');
    const outcome = expectedOutcome({
      start,
      plan: monthly('base', 5000),
      discount: null,
      discountAt: 'checkout',
      actions: [
        {
          at: new Date(start.getTime() + HOUR),
          action: { kind: 'change_product', to: monthly('down', 4000), behavior: 'invoice' },
        },
        { at: new Date(due.getTime() - HOUR), action: { kind: 'card_declines' } },
      ],
      horizon: at('2026-05-15T12:00:00Z'),
    });
    // −4993 + 3995 (4000 × 2674800 / 2678400 = 3994.62) = −998 to the balance; it pays part of the renewal.
    expect(outcome.orders.map((o) => [o.billingReason, o.total, o.balanceApplied, o.charged, o.status])).toEqual([
      ['subscription_create', 5000, 0, 5000, 'paid'],
      ['subscription_update', 0, 0, 0, 'paid'],
      ['subscription_cycle', 4000, 998, 3002, 'pending'],
    ]);
    expect(outcome.subscription.status).toBe('canceled');
    expect([outcome.creditBalance, outcome.creditsCreated, outcome.creditsApplied]).toEqual([998, 998, 0]);
  });

  it('dunning recovered: the retry after the card works pays the order and the renewals go on', () => {
    const due = at('2026-02-15T12:00:00Z');
    const outcome = expectedOutcome({
      start,
      plan: monthly('base', 1000),
      discount: null,
      discountAt: 'checkout',
      actions: [
        { at: new Date(due.getTime() - HOUR), action: { kind: 'card_declines' } },
        { at: new Date(due.getTime() + DAY), action: { kind: 'card_works' } },
      ],
      horizon: at('2026-03-15T12:00:00Z'),
    });
    expect(outcome.payments.map((p) => [p.at.toISOString().slice(0, 10), p.status])).toEqual([
      ['2026-01-15', 'succeeded'],
      ['2026-02-15', 'failed'],
      ['2026-02-17', 'succeeded'],
      ['2026-03-15', 'succeeded'],
    ]);
    expect(outcome.subscription.status).toBe('active');
  });

  it('month → year: the unused month is credited and the year billed at once from the change', () => {
    const change = at('2026-01-25T12:00:00Z'); // 21 of 31 days left
    const outcome = expectedOutcome({
      start,
      plan: monthly('base', 3100),
      discount: null,
      discountAt: 'checkout',
      actions: [
        {
          at: change,
          action: {
            kind: 'change_product',
            to: { name: 'yearly', interval: 'year', price: 30_000 },
            behavior: 'prorate',
          },
        },
      ],
      horizon: at('2026-06-15T12:00:00Z'),
    });
    expect(outcome.orders.map((o) => [o.at.toISOString(), o.billingReason, o.total])).toEqual([
      ['2026-01-15T12:00:00.000Z', 'subscription_create', 3100],
      ['2026-01-25T12:00:00.000Z', 'subscription_update', 30_000 - 2100],
    ]);
    expect(outcome.subscription.currentPeriodEnd).toEqual(at('2027-01-25T12:00:00Z'));
  });
});

describe('trialEndOf', () => {
  it.each([
    ['2026-01-31T12:00:00Z', 'day', 7, '2026-02-07T12:00:00.000Z'],
    ['2026-01-31T12:00:00Z', 'month', 1, '2026-02-28T12:00:00.000Z'],
    ['2028-01-30T12:00:00Z', 'month', 1, '2028-02-29T12:00:00.000Z'],
    ['2028-02-29T12:00:00Z', 'month', 1, '2028-03-29T12:00:00.000Z'],
  ] as const)('%s + %s × %i = %s', (from, interval, count, expected) => {
    expect(trialEndOf(at(from), { interval, count, cardAtCheckout: true }).toISOString()).toBe(expected);
  });
});

describe('expectedOutcome of a trial', () => {
  const start = at('2026-01-31T12:00:00Z');
  const base = monthly('base', 5000);
  const trial = { interval: 'month' as const, count: 1, cardAtCheckout: true };
  const run = (scenario: Partial<Scenario>) =>
    expectedOutcome({
      start,
      plan: base,
      discount: null,
      discountAt: 'checkout',
      actions: [],
      horizon: at('2026-05-28T13:00:00Z'),
      trial,
      ...scenario,
    });
  const rows = (scenario: Partial<Scenario>) =>
    run(scenario).orders.map((o) => [o.at.toISOString().slice(0, 10), o.billingReason, o.total, o.status]);

  it('nothing at the checkout, the first period charged at the trial end, renewals on its day of month', () => {
    const outcome = run({});
    // Jan 31 + 1 month = Feb 28: the paid periods keep day 28.
    expect(rows({})).toEqual([
      ['2026-02-28', 'subscription_cycle', 5000, 'paid'],
      ['2026-03-28', 'subscription_cycle', 5000, 'paid'],
      ['2026-04-28', 'subscription_cycle', 5000, 'paid'],
      ['2026-05-28', 'subscription_cycle', 5000, 'paid'],
    ]);
    expect(outcome.payments.map((p) => p.at.toISOString().slice(0, 10))).toEqual([
      '2026-02-28',
      '2026-03-28',
      '2026-04-28',
      '2026-05-28',
    ]);
    expect(outcome.subscription).toMatchObject({
      status: 'active',
      trialStart: start,
      trialEnd: at('2026-02-28T12:00:00Z'),
      currentPeriodStart: at('2026-05-28T12:00:00Z'),
      currentPeriodEnd: at('2026-06-28T12:00:00Z'),
    });
  });

  it('a once discount redeemed at the checkout pays for the first paid period only', () => {
    expect(rows({ discount: { duration: 'once', type: 'percentage', basisPoints: 1000 } }).map((r) => r[2])).toEqual([
      4500, 5000, 5000, 5000,
    ]);
  });

  it('canceled during the trial: ends at the trial end, nothing billed', () => {
    const outcome = run({ actions: [{ at: at('2026-02-03T12:00:00Z'), action: { kind: 'cancel_at_period_end' } }] });
    expect(outcome.orders).toEqual([]);
    expect(outcome.payments).toEqual([]);
    expect(outcome.subscription).toMatchObject({
      status: 'canceled',
      endedAt: at('2026-02-28T12:00:00Z'),
      cancelAtPeriodEnd: true,
    });
  });

  it('card-less: ends unpaid at the trial end, unless a card is added during the trial', () => {
    const cardless = { ...trial, cardAtCheckout: false };
    const unpaid = run({ trial: cardless });
    expect(unpaid.orders).toEqual([]);
    expect(unpaid.subscription).toMatchObject({ status: 'canceled', endedAt: at('2026-02-28T12:00:00Z') });
    const added = run({ trial: cardless, actions: [{ at: at('2026-02-02T12:00:00Z'), action: { kind: 'add_card' } }] });
    expect(added.orders.map((o) => o.total)).toEqual([5000, 5000, 5000, 5000]);
    expect(added.subscription.status).toBe('active');
  });

  it('a plan change during the trial continues the trial: nothing now, the new plan from the trial end', () => {
    const outcome = run({
      actions: [
        {
          at: at('2026-02-10T12:00:00Z'),
          action: {
            kind: 'change_product',
            to: { name: 'yearly', interval: 'year', price: 30_000 },
            behavior: 'invoice',
          },
        },
      ],
    });
    expect(outcome.orders.map((o) => [o.at.toISOString(), o.total])).toEqual([['2026-02-28T12:00:00.000Z', 30_000]]);
    expect(outcome.subscription.currentPeriodEnd).toEqual(at('2027-02-28T12:00:00Z'));
  });

  it('a declined first charge goes through dunning from the trial end', () => {
    const outcome = run({
      actions: [{ at: at('2026-02-28T11:00:00Z'), action: { kind: 'card_declines' } }],
      horizon: at('2026-04-01T00:00:00Z'),
    });
    expect(outcome.payments.map((p) => [p.at.toISOString().slice(0, 10), p.status])).toEqual([
      ['2026-02-28', 'failed'],
      ['2026-03-02', 'failed'],
      ['2026-03-07', 'failed'],
      ['2026-03-14', 'failed'],
      ['2026-03-21', 'failed'],
    ]);
    expect(outcome.subscription).toMatchObject({ status: 'canceled', endedAt: at('2026-03-21T12:00:00Z') });
  });
});
