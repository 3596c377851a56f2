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
  const originals = new Map<Method, AnyFn>();
  for (const method of PROCESSOR_METHODS) {
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
