import { AsyncLocalStorage } from 'node:async_hooks';
import { Kysely } from 'kysely';
import { SimulatedPaymentProcessor } from '../../src/platform/payments/simulated.js';

/**
 * Test support: proves that no payment processor call is made while a database transaction is open.
 * Every transaction Tessera opens (Kysely's `transaction().execute`) runs its callback inside an async
 * context marked "in a transaction"; every processor method checks that mark on entry and records the
 * call as a violation when it is set. The processor's own short transactions start after the check.
 *
 * Also a processor that fails after charging (a timeout after the capture) and one that never answers
 * (a crash between the charge and its record), for the tests of checkout confirm.
 */
const inTransaction = new AsyncLocalStorage<true>();

const PROCESSOR_METHODS = [
  'chargeWithConfirmationToken',
  'setupWithConfirmationToken',
  'chargeSavedPaymentMethod',
  'retrieveCharge',
  'retrieveSetup',
  'refund',
  'setupPaymentMethod',
  'retrievePaymentMethodSetup',
  'detachPaymentMethod',
] as const;

type Method = (typeof PROCESSOR_METHODS)[number];
type AnyFn = (...args: unknown[]) => Promise<unknown>;

export interface ProcessorGuard {
  /** Processor calls made inside a transaction (the method name and a stack). */
  violations: { method: string; stack: string }[];
  /** Every processor call, in order. */
  calls: Method[];
  /** Distinct ids of charges that succeeded at the processor (money moved). */
  captured: Set<string>;
  /** The next call of `method` goes through at the processor, then throws as a lost answer would. */
  failAfterProcessing(method: Method): void;
  /** The next call of `method` goes through at the processor, then waits until `release()`, then throws. */
  hangAfterProcessing(method: Method): { reached: Promise<void>; release(): void };
  uninstall(): void;
}

export function installProcessorGuard(): ProcessorGuard {
  const guard: ProcessorGuard = {
    violations: [],
    calls: [],
    captured: new Set(),
    failAfterProcessing: (method) => faults.set(method, { kind: 'fail' }),
    hangAfterProcessing: (method) => {
      let release!: () => void;
      let reached!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
      faults.set(method, { kind: 'hang', released, reached });
      return { reached: reachedPromise, release };
    },
    uninstall: () => {
      Kysely.prototype.transaction = originalTransaction;
      for (const [method, fn] of originals)
        (SimulatedPaymentProcessor.prototype as unknown as Record<string, AnyFn>)[method] = fn;
    },
  };
  const faults = new Map<Method, { kind: 'fail' } | { kind: 'hang'; released: Promise<void>; reached: () => void }>();

  const originalTransaction = Kysely.prototype.transaction;
  Kysely.prototype.transaction = function (this: Kysely<never>) {
    const builder = originalTransaction.call(this);
    const execute = builder.execute.bind(builder);
    return Object.assign(builder, {
      execute: (callback: Parameters<typeof execute>[0]) =>
        execute((trx) => inTransaction.run(true, () => callback(trx))),
    });
  } as typeof originalTransaction;

  const prototype = SimulatedPaymentProcessor.prototype as unknown as Record<string, AnyFn>;
  const originals = new Map<string, AnyFn>();
  // Off-session charges: the simulated processor makes one alone as a batch of one, so the batch is what
  // is watched, each charge of it counted as a call and a fault lost with the first charge that it answers.
  const originalBatch = prototype.chargeSavedPaymentMethods!;
  originals.set('chargeSavedPaymentMethods', originalBatch);
  prototype.chargeSavedPaymentMethods = async function (this: unknown, ...args: unknown[]) {
    const inputs = args[0] as unknown[];
    for (const _ of inputs) guard.calls.push('chargeSavedPaymentMethod');
    if (inTransaction.getStore())
      guard.violations.push({ method: 'chargeSavedPaymentMethods', stack: new Error().stack ?? '' });
    const answers = (await originalBatch.apply(this, args)) as (
      { status?: string; processorPaymentId?: string | null } | Error
    )[];
    for (const answer of answers) {
      if (!(answer instanceof Error) && answer.status === 'succeeded' && answer.processorPaymentId)
        guard.captured.add(answer.processorPaymentId);
    }
    const fault = faults.get('chargeSavedPaymentMethod');
    const first = answers.findIndex((answer) => !(answer instanceof Error));
    if (fault && first >= 0) {
      faults.delete('chargeSavedPaymentMethod');
      if (fault.kind === 'hang') {
        fault.reached();
        await fault.released;
      }
      answers[first] = new Error("chargeSavedPaymentMethod: the processor's answer was lost");
    }
    return answers;
  };
  for (const method of PROCESSOR_METHODS) {
    if (method === 'chargeSavedPaymentMethod') continue;
    const original = prototype[method]!;
    originals.set(method, original);
    prototype[method] = async function (this: unknown, ...args: unknown[]) {
      guard.calls.push(method);
      if (inTransaction.getStore()) guard.violations.push({ method, stack: new Error().stack ?? '' });
      const result = (await original.apply(this, args)) as { status?: string; processorPaymentId?: string | null };
      if (result?.status === 'succeeded' && result.processorPaymentId) guard.captured.add(result.processorPaymentId);
      const fault = faults.get(method);
      if (fault) {
        faults.delete(method);
        if (fault.kind === 'hang') {
          fault.reached();
          await fault.released;
        }
        throw new Error(`${method}: the processor's answer was lost`);
      }
      return result;
    };
  }
  return guard;
}
