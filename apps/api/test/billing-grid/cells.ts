import {
  periodBoundary,
  trialEndOf,
  type DiscountSpec,
  type Interval,
  type Plan,
  type Scenario,
  type TimedAction,
  type TrialSpec,
} from './model.js';

/**
 * The axes of the billing grid and the scenario of each cell. The full product is larger than a run
 * can afford, so the grid is a fixed-seed sample of it (every sampled cell is run); `npm test` runs a
 * smaller deterministic sample of the same order.
 */

export const INTERVALS = ['month', 'year'] as const;
export const START_DAYS = ['1', '15', '28', '29', '30', '31', 'feb29'] as const;
export const DISCOUNTS = [
  'none',
  'once-percentage',
  'once-fixed',
  'forever-percentage',
  'forever-fixed',
  'repeating3-percentage',
  'repeating3-fixed',
] as const;
export const CHANGES = [
  'none',
  'upgrade-prorate',
  'upgrade-invoice',
  'downgrade-prorate',
  'downgrade-invoice',
  'interval',
  'discount-midway',
] as const;
export const PAYMENTS = ['paid', 'recovered', 'exhausted'] as const;
export const ENDS = ['renews', 'cancel', 'uncancel', 'revoke'] as const;
/** Not possible yet (no refunds API in the grid): the axis exists so that the cells can grow into it. */
export const REFUNDS = ['none'] as const;
/** `fr-20`: the seller collects 20 % VAT in France and the buyer's billing address is French (docs/tax.md). */
export const TAXES = ['none', 'fr-20'] as const;
/** The rate each tax value registers, in basis points. */
export const TAX_RATES: Record<(typeof TAXES)[number], number> = { none: 0, 'fr-20': 2000 };
/**
 * A free trial from the checkout (docs/trials.md): 7 days or 1 month, with the card saved at the checkout,
 * or card-less (it ends at the trial end), or card-less with a card added in the portal during the trial.
 */
export const TRIALS = ['none', 'day7', 'month1', 'day7-cardless', 'month1-cardless', 'month1-cardless-added'] as const;
export const TRIAL_SPECS: Record<Exclude<(typeof TRIALS)[number], 'none'>, TrialSpec> = {
  day7: { interval: 'day', count: 7, cardAtCheckout: true },
  month1: { interval: 'month', count: 1, cardAtCheckout: true },
  'day7-cardless': { interval: 'day', count: 7, cardAtCheckout: false },
  'month1-cardless': { interval: 'month', count: 1, cardAtCheckout: false },
  'month1-cardless-added': { interval: 'month', count: 1, cardAtCheckout: false },
};

export interface Cell {
  interval: Interval;
  startDay: (typeof START_DAYS)[number];
  discount: (typeof DISCOUNTS)[number];
  change: (typeof CHANGES)[number];
  payment: (typeof PAYMENTS)[number];
  end: (typeof ENDS)[number];
  refund: (typeof REFUNDS)[number];
  tax: (typeof TAXES)[number];
  trial: (typeof TRIALS)[number];
}

export const cellName = (cell: Cell): string =>
  [cell.interval, cell.startDay, cell.discount, cell.change, cell.payment, cell.end].join('/') +
  (cell.refund !== 'none' ? `/refund-${cell.refund}` : '') +
  (cell.tax !== 'none' ? `/tax-${cell.tax}` : '') +
  (cell.trial !== 'none' ? `/trial-${cell.trial}` : '');

/**
 * Cells that describe one real scenario: a discount set mid-way needs a discount; after dunning is
 * exhausted the subscription has ended, so it takes no later change or end; a card-less trial has no
 * card that could decline.
 */
export function isValidCell(cell: Cell): boolean {
  if (cell.change === 'discount-midway' && cell.discount === 'none') return false;
  if (cell.payment === 'exhausted' && (cell.change !== 'none' || cell.end !== 'renews')) return false;
  if (cell.trial.includes('cardless') && cell.payment !== 'paid') return false;
  return true;
}

export function allCells(): Cell[] {
  const cells: Cell[] = [];
  for (const interval of INTERVALS)
    for (const startDay of START_DAYS)
      for (const discount of DISCOUNTS)
        for (const change of CHANGES)
          for (const payment of PAYMENTS)
            for (const end of ENDS)
              for (const refund of REFUNDS)
                for (const tax of TAXES)
                  for (const trial of TRIALS) {
                    const cell = { interval, startDay, discount, change, payment, end, refund, tax, trial };
                    if (isValidCell(cell)) cells.push(cell);
                  }
  return cells;
}

/** mulberry32: a small seeded generator, so that a sample is the same on every machine. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export const GRID_SEED = 20_261_124;
export const FULL_GRID_SIZE = 1_500;
export const SAMPLE_SIZE = 300;
/** One cell in TRIAL_EVERY has a trial: the full grid is the 1,200 cells it had before trials, and 300 trials. */
export const TRIAL_EVERY = 5;

function shuffled(cells: Cell[], seed: number): Cell[] {
  const random = seeded(seed);
  for (let i = cells.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [cells[i], cells[j]] = [cells[j]!, cells[i]!];
  }
  return cells;
}

/**
 * The grid in a fixed order, the sample its head: the cells without a trial shuffled with the seed (the
 * order the grid had before its trial axis), and every TRIAL_EVERY-th place a cell with a trial, from the
 * trial cells shuffled with the next seed.
 */
export function gridCells(size: number, seed = GRID_SEED): Cell[] {
  const cells = allCells();
  const plain = shuffled(
    cells.filter((cell) => cell.trial === 'none'),
    seed,
  );
  const trials = shuffled(
    cells.filter((cell) => cell.trial !== 'none'),
    seed + 1,
  );
  const grid: Cell[] = [];
  let [p, t] = [0, 0];
  while (grid.length < size && (p < plain.length || t < trials.length)) {
    const trialTurn = grid.length % TRIAL_EVERY === TRIAL_EVERY - 1;
    if ((trialTurn && t < trials.length) || p >= plain.length) grid.push(trials[t++]!);
    else grid.push(plain[p++]!);
  }
  return grid;
}

/**
 * `BILLING_GRID=full` runs the full grid; otherwise the sample (`BILLING_GRID=<n>` for the first n cells).
 * `BILLING_GRID_MATCH=<text>` keeps those whose name contains it (`/trial-`: the trial cells).
 */
export function selectedCells(env: Record<string, string | undefined> = process.env): Cell[] {
  const only = env.BILLING_GRID_CELL;
  if (only) return allCells().filter((cell) => cellName(cell).startsWith(only));
  const setting = env.BILLING_GRID;
  const size = setting === 'full' ? FULL_GRID_SIZE : setting && /^\d+$/.test(setting) ? Number(setting) : SAMPLE_SIZE;
  const match = env.BILLING_GRID_MATCH;
  return gridCells(size).filter((cell) => !match || cellName(cell).includes(match));
}

// ─── Scenario of a cell ────────────────────────────────────────────────────────────────────────────

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Prices chosen so that rounding matters: 12.5 % of 4,996 is 624.5 (625 half away from zero, 624 half to even). */
export const PLANS: Record<Interval, { base: Plan; up: Plan; down: Plan; other: Plan }> = {
  month: {
    base: { name: 'base', interval: 'month', price: 4996 },
    up: { name: 'up', interval: 'month', price: 11_990 },
    down: { name: 'down', interval: 'month', price: 1996 },
    other: { name: 'other', interval: 'year', price: 48_004 },
  },
  year: {
    base: { name: 'base', interval: 'year', price: 48_004 },
    up: { name: 'up', interval: 'year', price: 119_996 },
    down: { name: 'down', interval: 'year', price: 19_996 },
    other: { name: 'other', interval: 'month', price: 4996 },
  },
};

const PERCENTAGE_BASIS_POINTS = 1250;
/** More than the monthly downgrade's price: a fixed discount capped at the amount, an order of 0. */
const FIXED_AMOUNT = 2500;

export function discountSpec(discount: Cell['discount']): DiscountSpec | null {
  if (discount === 'none') return null;
  const [duration, type] = discount.split('-') as [string, 'percentage' | 'fixed'];
  const amount =
    type === 'percentage' ? { type, basisPoints: PERCENTAGE_BASIS_POINTS } : { type, amount: FIXED_AMOUNT };
  if (duration === 'repeating3') return { ...amount, duration: 'repeating', months: 3 };
  return { ...amount, duration: duration as 'once' | 'forever' };
}

/** Start instants: month-end days in January (February clamps them), Feb 29 of a leap year. */
export function startOf(cell: Cell): Date {
  const day = cell.startDay;
  if (day === 'feb29') return new Date('2028-02-29T12:00:00Z');
  if (day === '1') return new Date('2026-02-01T12:00:00Z');
  return new Date(`2026-01-${day.padStart(2, '0')}T12:00:00Z`);
}

/**
 * The timeline: checkout at the start; the card declines an hour before the first renewal (and works
 * again a day after it, when dunning recovers); the change in the second period, 10 (monthly) or 100
 * (yearly) days and 7 hours in; the end action a day later (an uncancel an hour after its cancel);
 * about four monthly or three yearly renewals in all.
 */
export function scenarioOf(cell: Cell): Scenario {
  if (cell.trial !== 'none') return trialScenarioOf(cell, TRIAL_SPECS[cell.trial]);
  const plans = PLANS[cell.interval];
  const start = startOf(cell);
  const firstRenewal = periodBoundary(start, cell.interval, 1);
  const actions: TimedAction[] = [];
  if (cell.payment !== 'paid') {
    actions.push({ at: new Date(firstRenewal.getTime() - HOUR), action: { kind: 'card_declines' } });
    if (cell.payment === 'recovered')
      actions.push({ at: new Date(firstRenewal.getTime() + DAY), action: { kind: 'card_works' } });
  }
  const changeAt = new Date(firstRenewal.getTime() + (cell.interval === 'month' ? 10 : 100) * DAY + 7 * HOUR);
  const change = cell.change;
  actions.push(...changeAndEnd(cell, changeAt));

  // A yearly plan moved to monthly renews monthly: three months after the change are enough.
  const horizon =
    cell.interval === 'year' && change === 'interval'
      ? new Date(changeAt.getTime() + 92 * DAY)
      : new Date(periodBoundary(start, cell.interval, cell.interval === 'month' ? 4 : 3).getTime() + HOUR);
  return {
    start,
    plan: plans.base,
    discount: discountSpec(cell.discount),
    discountAt: change === 'discount-midway' ? 'action' : 'checkout',
    actions,
    horizon,
    taxBasisPoints: TAX_RATES[cell.tax],
  };
}

/** The change at `changeAt` and the end action a day later (an uncancel an hour after its cancel). */
function changeAndEnd(cell: Cell, changeAt: Date): TimedAction[] {
  const plans = PLANS[cell.interval];
  const actions: TimedAction[] = [];
  const change = cell.change;
  if (change === 'discount-midway') actions.push({ at: changeAt, action: { kind: 'set_discount' } });
  else if (change === 'interval')
    actions.push({ at: changeAt, action: { kind: 'change_product', to: plans.other, behavior: 'prorate' } });
  else if (change !== 'none') {
    const [direction, behavior] = change.split('-') as ['upgrade' | 'downgrade', 'prorate' | 'invoice'];
    actions.push({
      at: changeAt,
      action: { kind: 'change_product', to: direction === 'upgrade' ? plans.up : plans.down, behavior },
    });
  }
  const endAt = new Date(changeAt.getTime() + DAY);
  if (cell.end === 'cancel' || cell.end === 'uncancel')
    actions.push({ at: endAt, action: { kind: 'cancel_at_period_end' } });
  if (cell.end === 'uncancel') actions.push({ at: new Date(endAt.getTime() + HOUR), action: { kind: 'uncancel' } });
  if (cell.end === 'revoke') actions.push({ at: endAt, action: { kind: 'revoke' } });
  return actions;
}

/**
 * A trial cell's timeline: the checkout starts the trial; a card-less trial that gets one has it added
 * a day and 3 hours in; the change 2 days 7 hours in and the end action a day later, both within the
 * shortest trial; the card declines an hour before the trial end (the first charge) and works again a
 * day after it; then about four monthly or three yearly periods from the trial end.
 */
function trialScenarioOf(cell: Cell, trial: TrialSpec): Scenario {
  const plans = PLANS[cell.interval];
  const start = startOf(cell);
  const trialEnd = trialEndOf(start, trial);
  const actions: TimedAction[] = [];
  if (cell.trial.endsWith('-added'))
    actions.push({ at: new Date(start.getTime() + DAY + 3 * HOUR), action: { kind: 'add_card' } });
  if (cell.payment !== 'paid') {
    actions.push({ at: new Date(trialEnd.getTime() - HOUR), action: { kind: 'card_declines' } });
    if (cell.payment === 'recovered')
      actions.push({ at: new Date(trialEnd.getTime() + DAY), action: { kind: 'card_works' } });
  }
  actions.push(...changeAndEnd(cell, new Date(start.getTime() + 2 * DAY + 7 * HOUR)));
  // The plan held at the trial end sets the paid periods' length.
  const paidInterval = cell.change === 'interval' ? plans.other.interval : cell.interval;
  const horizon = new Date(periodBoundary(trialEnd, paidInterval, paidInterval === 'month' ? 4 : 3).getTime() + HOUR);
  return {
    start,
    plan: plans.base,
    discount: discountSpec(cell.discount),
    discountAt: cell.change === 'discount-midway' ? 'action' : 'checkout',
    actions,
    horizon,
    taxBasisPoints: TAX_RATES[cell.tax],
    trial,
  };
}
