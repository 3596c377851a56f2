/**
 * The reference model of the billing grid: what a seller should see, computed from the billing rules
 * alone (Polar's native engine as documented in research §2.3, §3.3–3.9, §4.3–4.4 and the expectations
 * of issue 13; Stripe Billing where those are silent). It shares no code with the engine on purpose: a
 * scenario is replayed as a small event simulation and every money rule is written out here again.
 *
 * Money is integers in minor units. Times are UTC instants; a period keeps its time of day.
 */

export type Interval = 'month' | 'year';

export interface Plan {
  /** The grid's name for the product (base, up, down, other interval). */
  name: string;
  interval: Interval;
  /** One fixed price per product. */
  price: number;
}

export type DiscountAmount = { type: 'percentage'; basisPoints: number } | { type: 'fixed'; amount: number };
export type DiscountDuration =
  { duration: 'once' } | { duration: 'forever' } | { duration: 'repeating'; months: number };
export type DiscountSpec = DiscountAmount & DiscountDuration;

/** A seller or customer action at an instant. */
export type Action =
  | { kind: 'change_product'; to: Plan; behavior: 'prorate' | 'invoice' }
  | { kind: 'set_discount' }
  | { kind: 'card_declines' }
  | { kind: 'card_works' }
  | { kind: 'cancel_at_period_end' }
  | { kind: 'uncancel' }
  | { kind: 'revoke' }
  /** The customer saves a card in the portal (a card-less trial's way to convert). */
  | { kind: 'add_card' };

/** A free trial: its length, and whether the checkout saved a card (card-less: none). */
export interface TrialSpec {
  interval: 'day' | 'month';
  count: number;
  cardAtCheckout: boolean;
}

export interface TimedAction {
  at: Date;
  action: Action;
}

export interface Scenario {
  start: Date;
  plan: Plan;
  discount: DiscountSpec | null;
  /** `checkout`: the buyer redeems it; `action`: the seller sets it later (a `set_discount` action). */
  discountAt: 'checkout' | 'action';
  actions: TimedAction[];
  /** The model (and the run) stop here. */
  horizon: Date;
  /** The rate of the buyer's place (0: the seller is not registered there), basis points. */
  taxBasisPoints?: number;
  /** A free trial from the start (none: the first period is paid at the checkout). */
  trial?: TrialSpec | null;
}

export type BillingReason = 'subscription_create' | 'subscription_cycle' | 'subscription_update';

export interface ExpectedItem {
  amount: number;
  proration: boolean;
  /** The line that moves credit beyond the order to the customer's credit balance. */
  toBalance?: boolean;
}

export interface ExpectedOrder {
  at: Date;
  billingReason: BillingReason;
  items: ExpectedItem[];
  subtotal: number;
  discount: number;
  net: number;
  /** net + tax; never below 0 (the excess went to the credit balance). */
  total: number;
  status: 'paid' | 'pending';
  /** What the card was asked for after the credit balance (0: paid without a charge). */
  charged: number;
  /** Credit balance used by this order. */
  balanceApplied: number;
}

export interface ExpectedPayment {
  at: Date;
  /** Index of the order in `orders`. */
  order: number;
  amount: number;
  status: 'succeeded' | 'failed';
}

export interface Outcome {
  orders: ExpectedOrder[];
  payments: ExpectedPayment[];
  creditBalance: number;
  /** Credits that went to the balance (excess of orders ≤ 0) and what orders used of it. */
  creditsCreated: number;
  creditsApplied: number;
  subscription: {
    status: Status;
    currentPeriodStart: Date;
    currentPeriodEnd: Date | null;
    cancelAtPeriodEnd: boolean;
    endedAt: Date | null;
    plan: string;
    trialStart: Date | null;
    trialEnd: Date | null;
  };
  /** Due instants the run must step through (renewals, retries), in order. */
  dueTimes: Date[];
}

type Status = 'trialing' | 'active' | 'past_due' | 'canceled';

const DAY = 86_400_000;
/** Dunning: retries 2, 7, 14 and 21 days after the failed due date; the subscription ends after the last. */
export const RETRY_OFFSET_DAYS = [2, 7, 14, 21] as const;

// ─── Pure money and calendar rules ────────────────────────────────────────────────────────────────

/** Days in a month (month 0–11), leap years included. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** `months` calendar months after `from`, on `anchorDay` or the month's last day when shorter; time of day kept. */
export function addMonthsAnchored(from: Date, months: number, anchorDay = from.getUTCDate()): Date {
  const total = from.getUTCFullYear() * 12 + from.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(anchorDay, daysInMonth(year, month));
  const time = from.getTime() - Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  return new Date(Date.UTC(year, month, day) + time);
}

/** Period k after an anchor (k = 0 is the anchor itself): periods keep the anchor's day of month. */
export function periodBoundary(anchor: Date, interval: Interval, k: number): Date {
  return addMonthsAnchored(anchor, k * (interval === 'year' ? 12 : 1), anchor.getUTCDate());
}

/** A trial's end: days are exact 24-hour steps; months keep the start's day (or the shorter month's last day). */
export function trialEndOf(start: Date, trial: TrialSpec): Date {
  return trial.interval === 'day'
    ? new Date(start.getTime() + trial.count * DAY)
    : addMonthsAnchored(start, trial.count, start.getUTCDate());
}

/** round(a × num / den) with ties to even (Python's round, used by the reference for proration). */
export function roundHalfEvenRatio(a: number, num: number, den: number): number {
  if (den <= 0) throw new Error('denominator must be positive');
  const sign = a * num < 0 ? -1n : 1n;
  const n = BigInt(Math.abs(a)) * BigInt(Math.abs(num));
  const d = BigInt(den);
  let q = n / d;
  const twice = (n % d) * 2n;
  if (twice > d || (twice === d && q % 2n === 1n)) q += 1n;
  return Number(sign * q);
}

/** Percentage off an amount: basis points, rounded half away from zero (12.5 → 13). */
export function percentageOff(amount: number, basisPoints: number): number {
  const n = BigInt(Math.abs(amount)) * BigInt(basisPoints);
  let q = n / 10_000n;
  if ((n % 10_000n) * 2n >= 10_000n) q += 1n;
  return Math.sign(amount) * Number(q);
}

/** The discount on an amount: percentage rounded half away from zero; fixed capped at the amount. */
export function discountOn(amount: number, discount: DiscountAmount): number {
  if (amount <= 0) return 0;
  return discount.type === 'percentage'
    ? percentageOff(amount, discount.basisPoints)
    : Math.min(discount.amount, amount);
}

/** Whether a discount first used for the charge at `appliedAt` still covers the charge of a period starting at `periodStart`. */
export function discountCovers(spec: DiscountDuration, appliedAt: Date, periodStart: Date): boolean {
  if (periodStart.getTime() < appliedAt.getTime()) return false;
  switch (spec.duration) {
    case 'forever':
      return true;
    // once: only the first discounted payment.
    case 'once':
      return periodStart.getTime() === appliedAt.getTime();
    // repeating N: charges of periods starting within N months of the first discounted one (Stripe's end = applied + N months).
    case 'repeating':
      return periodStart.getTime() < addMonthsAnchored(appliedAt, spec.months).getTime();
  }
}

/** Proration of one price over the rest of a period: (amount − its discount) × remaining/total seconds, ties to even. */
export function prorate(amount: number, periodStart: Date, periodEnd: Date, at: Date): number {
  const total = Math.round((periodEnd.getTime() - periodStart.getTime()) / 1000);
  const remaining = Math.max(0, Math.round((periodEnd.getTime() - at.getTime()) / 1000));
  return roundHalfEvenRatio(amount, remaining, total);
}

// ─── The simulation ───────────────────────────────────────────────────────────────────────────────

interface ActiveDiscount {
  spec: DiscountSpec;
  /** The period start of the first discounted charge; null until the next renewal for one set mid-way. */
  appliedAt: Date | null;
}

interface Dunning {
  order: number;
  failures: number;
  firstDue: Date;
}

/** The expected orders, payments, credit balance and subscription state of a scenario. */
export function expectedOutcome(scenario: Scenario): Outcome {
  const trial = scenario.trial ?? null;
  // A trial is the first period: nothing is billed in it, and the paid periods are anchored on its end.
  const trialEnd = trial ? trialEndOf(scenario.start, trial) : null;
  let plan = scenario.plan;
  let anchor = trialEnd ?? scenario.start;
  let periodIndex = 0;
  let periodStart = scenario.start;
  let periodEnd = trialEnd ?? periodBoundary(anchor, plan.interval, 1);
  let status: Status = trial ? 'trialing' : 'active';
  let cancelAtPeriodEnd = false;
  let endedAt: Date | null = null;
  // Card-less trials have no card to charge until the customer adds one.
  let hasCard = trial ? trial.cardAtCheckout : true;
  let cardWorks = true;
  let balance = 0;
  let creditsCreated = 0;
  let creditsApplied = 0;
  let pending: ExpectedItem[] = [];
  // A discount redeemed at a trial's checkout starts paying with the first paid period, the trial's end.
  let discount: ActiveDiscount | null =
    scenario.discount && scenario.discountAt === 'checkout'
      ? { spec: scenario.discount, appliedAt: trialEnd ?? scenario.start }
      : null;
  let dunning: Dunning | null = null;
  const orders: ExpectedOrder[] = [];
  const payments: ExpectedPayment[] = [];
  const dueTimes: Date[] = [];

  /** The current discount covers the charge of the period starting at `start` (and is dropped once expired). */
  const discountFor = (start: Date): DiscountAmount | null => {
    if (!discount?.appliedAt) return null;
    return discountCovers(discount.spec, discount.appliedAt, start) ? discount.spec : null;
  };

  /** Charges what an order owes: the credit balance first, then the card; 0 is paid without a charge. */
  const settle = (index: number, at: Date) => {
    const order = orders[index]!;
    if (order.total <= 0) {
      order.status = 'paid';
      return;
    }
    // The balance is used before any charge.
    const applied = Math.min(balance, order.total);
    balance -= applied;
    creditsApplied += applied;
    order.balanceApplied = applied;
    order.charged = order.total - applied;
    if (order.charged === 0) {
      order.status = 'paid';
      return;
    }
    attempt(index, at);
  };

  const attempt = (index: number, at: Date) => {
    const order = orders[index]!;
    payments.push({ at, order: index, amount: order.charged, status: cardWorks ? 'succeeded' : 'failed' });
    if (cardWorks) {
      order.status = 'paid';
      if (dunning?.order === index) {
        dunning = null;
        status = 'active';
      }
      return;
    }
    if (!dunning) {
      // First failure: past due, retries scheduled from the due date.
      dunning = { order: index, failures: 1, firstDue: at };
      status = 'past_due';
      return;
    }
    dunning.failures += 1;
    if (dunning.failures > RETRY_OFFSET_DAYS.length) {
      // The last retry failed: the subscription ends at once, the order stays unpaid and the balance it
      // used comes back (as Stripe's voided invoice gives back the customer balance it applied).
      status = 'canceled';
      endedAt = at;
      dunning = null;
      balance += order.balanceApplied;
      creditsApplied -= order.balanceApplied;
    }
  };

  const addOrder = (at: Date, billingReason: BillingReason, items: ExpectedItem[], discountAmount: number) => {
    const raw = items.reduce((sum, item) => sum + item.amount, 0) - discountAmount;
    // Tax on an amount at the rate, a half cent up.
    const rate = scenario.taxBasisPoints ?? 0;
    const taxOn = (amount: number) => Math.floor((2 * amount * rate + 10_000) / 20_000);
    // Credits always apply in full; what exceeds the order leaves it as a line to the credit balance,
    // with the tax on it (as Stripe taxes proration credits).
    const toBalance = raw < 0 ? -raw : 0;
    const lines = toBalance > 0 ? [...items, { amount: toBalance, proration: true, toBalance: true }] : items;
    const credited = toBalance > 0 ? toBalance + taxOn(toBalance) : 0;
    balance += credited;
    creditsCreated += credited;
    const subtotal = lines.reduce((sum, item) => sum + item.amount, 0);
    const net = subtotal - discountAmount;
    // An order with nothing to pay has no tax.
    const tax = net > 0 ? taxOn(net) : 0;
    orders.push({
      at,
      billingReason,
      items: lines,
      subtotal,
      discount: discountAmount,
      net,
      total: net + tax,
      status: 'pending',
      charged: 0,
      balanceApplied: 0,
    });
    settle(orders.length - 1, at);
  };

  /** A cycle order: the plan's price for the period starting at `start`, plus every pending entry. */
  const cycleOrder = (start: Date, billingReason: BillingReason = 'subscription_cycle') => {
    if (discount && !discount.appliedAt) discount.appliedAt = start;
    const covering = discountFor(start);
    if (discount && !covering && discount.appliedAt && start > discount.appliedAt) discount = null;
    const items = [{ amount: plan.price, proration: false }, ...pending];
    pending = [];
    // The discount applies only to the items that are not prorations (those have it baked in).
    const discountable = items.filter((item) => !item.proration).reduce((sum, item) => sum + item.amount, 0);
    addOrder(start, billingReason, items, covering ? discountOn(discountable, covering) : 0);
  };

  // The checkout: the first period paid at once, with the buyer's discount; a trial's checkout sells nothing yet.
  if (!trial) {
    const checkoutDiscount = discountFor(scenario.start);
    addOrder(
      scenario.start,
      'subscription_create',
      [{ amount: plan.price, proration: false }],
      checkoutDiscount ? discountOn(plan.price, checkoutDiscount) : 0,
    );
  }

  const actions = [...scenario.actions].sort((a, b) => a.at.getTime() - b.at.getTime());
  let next = 0;
  const horizon = scenario.horizon.getTime();

  for (;;) {
    // The next due instant: a dunning retry, or the period end of a subscription in good standing.
    const d = dunning as Dunning | null;
    // Read through a cast: the closures above change it, which narrowing does not see.
    const now = status as Status;
    let due: Date | null = null;
    if (now === 'past_due' && d) {
      due = new Date(d.firstDue.getTime() + RETRY_OFFSET_DAYS[d.failures - 1]! * DAY);
    } else if (now === 'active' || now === 'trialing') due = periodEnd;
    const action = actions[next];
    const dueFirst = due && (!action || due.getTime() <= action.at.getTime());
    const at = dueFirst ? due! : action?.at;
    if (!at || at.getTime() > horizon) break;

    if (dueFirst && due) {
      dueTimes.push(due);
      if (now === 'past_due' && d) {
        attempt(d.order, due);
        continue;
      }
      if (cancelAtPeriodEnd) {
        // Ends at the period end (the flag stays set, as the reference leaves it); pending entries are billed
        // in a final order, reported as a cycle order (the reference's internal subscription_cancel reason).
        status = 'canceled';
        endedAt = due;
        if (pending.length > 0) {
          const items = pending;
          pending = [];
          addOrder(due, 'subscription_cycle', items, 0);
        }
        continue;
      }
      if (now === 'trialing') {
        // The trial ends: without a card it ends unpaid, with nothing billed.
        if (!hasCard) {
          status = 'canceled';
          endedAt = due;
          continue;
        }
        // Otherwise the first paid period starts at the trial end, of the plan held then, charged like a renewal.
        status = 'active';
        anchor = due;
        periodIndex = 0;
        periodStart = due;
        periodEnd = periodBoundary(anchor, plan.interval, 1);
        cycleOrder(periodStart);
        continue;
      }
      // A renewal: the next period keeps the anchor day, billed in advance (past-due subscriptions wait for dunning).
      periodIndex += 1;
      periodStart = periodEnd;
      periodEnd = periodBoundary(anchor, plan.interval, periodIndex + 1);
      cycleOrder(periodStart);
      continue;
    }

    next += 1;
    const { action: what } = action!;
    if (now === 'canceled') continue;
    switch (what.kind) {
      // The card on file: a decline starts dunning at the next charge; a working card ends it at the next retry.
      case 'card_declines':
        cardWorks = false;
        break;
      case 'card_works':
        cardWorks = true;
        break;
      case 'add_card':
        hasCard = true;
        cardWorks = true;
        break;
      case 'cancel_at_period_end':
        cancelAtPeriodEnd = true;
        break;
      // Uncancel: the subscription renews as if never canceled.
      case 'uncancel':
        cancelAtPeriodEnd = false;
        break;
      case 'revoke':
        // Ends at once, with no credit for the unused time; entries still pending are billed in a final order.
        status = 'canceled';
        endedAt = at;
        if (pending.length > 0) {
          const items = pending;
          pending = [];
          addOrder(at, 'subscription_update', items, 0);
        }
        break;
      case 'set_discount':
        // Applies from the next renewal, with no proration of the current period.
        discount = { spec: scenario.discount!, appliedAt: null };
        break;
      case 'change_product': {
        // During a trial the trial continues on the new plan: nothing prorated or billed, the period kept.
        if (now === 'trialing') {
          plan = what.to;
          break;
        }
        // Credit for the old price's unused time, at the discount that paid for this period.
        const current = discountFor(periodStart);
        const credit = prorate(
          plan.price - (current ? discountOn(plan.price, current) : 0),
          periodStart,
          periodEnd,
          at,
        );
        const entries: ExpectedItem[] = [{ amount: -credit, proration: true }];
        if (what.to.interval !== plan.interval) {
          // Interval change: credit the unused time, then a new period starts now, billed at once (an update,
          // as Stripe's immediate invoice of an interval change is).
          pending.push(...entries);
          plan = what.to;
          anchor = at;
          periodIndex = 0;
          periodStart = at;
          periodEnd = periodBoundary(anchor, plan.interval, 1);
          cycleOrder(at, 'subscription_update');
          break;
        }
        const debit = prorate(
          what.to.price - (current ? discountOn(what.to.price, current) : 0),
          periodStart,
          periodEnd,
          at,
        );
        // Debit for the new price's time left (same discount); invoice bills both at once, prorate at the next renewal.
        entries.push({ amount: debit, proration: true });
        plan = what.to;
        if (what.behavior === 'invoice') addOrder(at, 'subscription_update', entries, 0);
        else pending.push(...entries);
        break;
      }
    }
  }

  return {
    orders,
    payments,
    creditBalance: balance,
    creditsCreated,
    creditsApplied,
    subscription: {
      status,
      currentPeriodStart: periodStart,
      currentPeriodEnd: periodEnd,
      cancelAtPeriodEnd,
      endedAt,
      plan: plan.name,
      trialStart: trial ? scenario.start : null,
      trialEnd,
    },
    dueTimes,
  };
}
