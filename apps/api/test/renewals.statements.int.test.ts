import { afterAll, beforeAll, expect, it } from 'vitest';
import { runSubscriptionBilling } from '../src/modules/subscriptions/subscriptions.renewal.js';
import type { ManualClock } from '../src/platform/clock.js';
import { organizationFactory } from './factories/organizations.js';
import { copySubscriptions, subscriptionFactory } from './factories/subscriptions.js';
import { startTestServer, type TestServer } from './harness.js';
import { COUNTED_SERVER, installStatementCounter, type StatementCounter } from './support/statement-counter.js';

/**
 * The SQL statements (BEGIN and COMMIT included) a billing run sends to renew and charge 50 monthly
 * subscriptions that all pay: two groups of 25 (subscriptions.renewal.ts GROUP). The count guards the
 * engine's round trips: a change that adds statements per subscription fails here and says which.
 */
let server: TestServer;
let counter: StatementCounter;

beforeAll(async () => {
  counter = installStatementCounter();
  server = await startTestServer(COUNTED_SERVER);
});
afterAll(async () => {
  await server?.stop();
  counter?.uninstall();
});

const COUNT = 50;
// 198 before a group's charges were made in one processor call (the simulated processor's two statements
// a charge); 382 before a group's claims, orders, items and charges were sent together (one statement each
// per renewal); 526 before a group's paid outcomes were recorded together (each renewal's payment, charge
// and order written by statements of its own).
const EXPECTED = 102;

it('renews and charges a subscription in a known number of statements', { timeout: 120_000 }, async () => {
  const { organization } = await organizationFactory(server, { name: 'Statements' });
  const first = await subscriptionFactory(server, organization.id, { price: 1500 });
  await copySubscriptions(server, first.id, COUNT - 1);
  (server.clock as ManualClock).advance(32 * 86_400_000);
  const ctx = server.context();
  const { result, statements } = await counter.count(() =>
    runSubscriptionBilling(ctx, ctx.transactions, { organizationId: organization.id }),
  );
  expect(result).toEqual({ renewals: COUNT, charge_attempts: COUNT });
  const paid = await server.runtime.database.db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('organization_id', '=', organization.id)
    .where('billing_reason', '=', 'subscription_cycle')
    .where('status', '=', 'paid')
    .executeTakeFirstOrThrow();
  expect(Number(paid.count)).toBe(COUNT);
  if (process.env.PRINT_STATEMENTS) {
    const byText = new Map<string, number>();
    for (const text of statements) {
      const key = text.replace(/\s+/g, ' ').slice(0, 120);
      byText.set(key, (byText.get(key) ?? 0) + 1);
    }
    for (const [text, count] of [...byText].sort((a, b) => b[1] - a[1])) console.log(String(count).padStart(5), text);
  }
  expect(statements.length).toBe(EXPECTED);
});
