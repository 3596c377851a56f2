import type { Context } from '../../platform/context.js';
import type { Executor } from '../../platform/db/database.js';
import type { JobRun } from '../../platform/jobs/queue.js';
import { stripeTaxAvailable, stripeTaxCalculatorFor } from '../../platform/stripe-tax.js';
import type { TaxInput, TaxResult } from '../../platform/tax.js';

/**
 * Stripe Tax for the orders billing makes (renewals, plan changes, proration and final orders) of an
 * organization that opted in (docs/tax.md). An order is priced inside its transaction, where no network
 * call may be made, so the question is asked first and the order written after:
 *
 * 1. the work runs in a transaction of its own; when `billSubscription` meets a question Stripe has not
 *    answered yet (the order's net, currency, the customer's address and tax id, inclusive or not), it
 *    throws `StripeTaxQuestion`, and everything the transaction wrote is rolled back;
 * 2. Stripe is asked with no transaction open (a calculation records nothing at Stripe);
 * 3. the work runs again with the answer; the order is written with Stripe's tax only if the question is
 *    still the same (a changed question is asked again, at most `ROUNDS` times).
 *
 * Retries are safe: nothing is written until the answer is there, and the work claims what it bills
 * (a period, a charge attempt) in the transaction that writes the order. Where the work cannot be run
 * again in a transaction of its own (inside a caller's transaction), the order falls back to the
 * organization's registrations and the reason is logged.
 */
export class StripeTaxQuestion extends Error {
  constructor(
    readonly input: TaxInput,
    readonly inclusive: boolean,
    readonly fingerprint: string,
  ) {
    super('Stripe Tax has not answered this question yet');
    this.name = 'StripeTaxQuestion';
  }
}

/** Asked questions in a row before the work falls back (each round follows a changed question). */
const ROUNDS = 3;

interface Asking {
  answers: Map<string, TaxResult>;
  /** false on the last round: an unanswered question falls back instead of being asked. */
  mayAsk: boolean;
}

/** The transactions opened by `withStripeTax`, keyed by their executor. */
const asking = new WeakMap<Executor, Asking>();

/** Whether `db` is a transaction (rather than the pool): work on it cannot be rolled back on its own. */
export const inTransaction = (db: Executor): boolean => (db as { isTransaction?: boolean }).isTransaction === true;

/** The question's identity: what Stripe is asked (without the organization's own rules) and how. */
export function stripeTaxFingerprint(input: TaxInput, inclusive: boolean): string {
  const { rules: _rules, ...asked } = input;
  return JSON.stringify({ ...asked, inclusive });
}

/**
 * Runs `fn` in a transaction of `run`, asking Stripe Tax between attempts for every question it meets
 * (see above). `ctx.db` must be the pool: inside a transaction there is nothing of our own to roll back,
 * and `fn` runs once in `run`, as it would without Stripe Tax. Stripe refusing a question (an address it
 * cannot locate) leaves the order untaxed with the reason logged, as a renewal cannot ask the buyer; when
 * Stripe cannot be reached, `onUnavailable` (when given) is answered and nothing is written, so the work
 * is done again later (a renewal stays due for the next run) rather than billed untaxed.
 */
export async function withStripeTax<R>(
  ctx: Context,
  run: JobRun,
  fn: (tx: Context) => Promise<R>,
  onUnavailable?: () => R,
): Promise<R> {
  if (!stripeTaxAvailable(ctx.config) || inTransaction(ctx.db)) return run.transaction(fn);
  const answers = new Map<string, TaxResult>();
  for (let round = 1; ; round++) {
    try {
      return await run.transaction((tx) => {
        if (inTransaction(tx.db)) asking.set(tx.db, { answers, mayAsk: round < ROUNDS });
        return fn(tx);
      });
    } catch (error) {
      if (!(error instanceof StripeTaxQuestion)) throw error;
      const calculator = stripeTaxCalculatorFor(ctx.config, error.inclusive);
      const answer: TaxResult = calculator
        ? await calculator.calculate(error.input)
        : { status: 'failed', message: 'Stripe is not configured.' };
      if (answer.status === 'failed' && answer.unavailable && onUnavailable) {
        ctx.log.warn({ tax: answer }, 'Stripe Tax unavailable: the order is billed later');
        return onUnavailable();
      }
      answers.set(error.fingerprint, answer);
    }
  }
}

/**
 * Marks `tx`, a transaction that commits several pieces of billing together (a billing run's group of
 * renewals or charge records), as one where Stripe may be asked: the first question Stripe has not
 * answered is thrown as `StripeTaxQuestion`, the caller's group rolls back whole, and each piece is done
 * again alone through `withStripeTax`, which asks. Nothing is ever billed with the registrations
 * because it was grouped.
 */
export function askStripeTaxIn(tx: Context): void {
  if (stripeTaxAvailable(tx.config) && inTransaction(tx.db)) asking.set(tx.db, { answers: new Map(), mayAsk: true });
}

/**
 * Stripe's answer to an order's question inside a transaction of `withStripeTax`: the answer when it
 * was asked, else a `StripeTaxQuestion` thrown (the transaction rolls back, Stripe is asked, the work
 * runs again). null where Stripe cannot be asked (not in such a transaction, or the question kept
 * changing): the caller falls back.
 */
export async function stripeTaxAnswer(ctx: Context, input: TaxInput, inclusive: boolean): Promise<TaxResult | null> {
  // No network call for these (unknown place, exempt, nothing to tax): answered here.
  if (!input.country || input.taxable === false || input.amount <= 0) {
    const calculator = stripeTaxCalculatorFor(ctx.config, inclusive);
    return calculator ? calculator.calculate(input) : null;
  }
  const current = asking.get(ctx.db);
  if (!current) return null;
  const fingerprint = stripeTaxFingerprint(input, inclusive);
  const answer = current.answers.get(fingerprint);
  if (answer) return answer;
  if (!current.mayAsk) return null;
  throw new StripeTaxQuestion(input, inclusive, fingerprint);
}
