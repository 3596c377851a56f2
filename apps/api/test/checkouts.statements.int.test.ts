import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADDRESS, confirmationToken } from './factories/checkouts.js';
import { benefitFactory } from './factories/benefits.js';
import { customFieldFactory } from './factories/custom-fields.js';
import { discountFactory } from './factories/discounts.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';
import {
  COUNTED_SERVER,
  installStatementCounter,
  tokenLastUseWritten,
  type StatementCounter,
} from './support/statement-counter.js';

/**
 * The SQL statements (BEGIN and COMMIT included) each step of a typical purchase sends: one product
 * with a fixed price, a benefit and a custom field, a discount. The counts guard the checkout path's
 * round trips: a change that adds one fails here and says which statements the step now sends.
 */
let server: TestServer;
let acme: OrganizationFixture;
let counter: StatementCounter;

beforeAll(async () => {
  counter = installStatementCounter();
  server = await startTestServer(COUNTED_SERVER);
  acme = await organizationFactory(server, { name: 'Acme' });
});
afterAll(async () => {
  await server?.stop();
  counter?.uninstall();
});

// clientGet, clientUpdate, confirm: 10, 15 and 63 before a checkout's products came from memory under the
// catalogue version (products.kept.ts) when kept there; confirm 55 before its settle read the checkout
// with its lock.
// confirm: 66 since its settle locks the checkout before the attempt (the order its first step takes them
// in), 63 since a transaction's webhook events are stored together as it commits.
// create: 15 since the organization is read with the token; the next one of the same products takes them
// from memory under the catalogue version (products.kept.ts).
const EXPECTED = { create: 15, createAgain: 10, clientGet: 6, clientUpdate: 11, confirm: 54 };

it('each checkout step sends a known number of statements', async () => {
  const field = await customFieldFactory(server, acme.organization.id);
  const product = await productFactory(server, acme.organization.id, {
    attached_custom_fields: [{ custom_field_id: field.id, required: true }],
  });
  const benefit = await benefitFactory(server, acme.organization.id);
  const attached = await server.inject({
    method: 'POST',
    url: `/v1/products/${product.product.id}/benefits`,
    headers: bearer(acme.token),
    payload: { benefits: [benefit.id] },
  });
  expect(attached.statusCode).toBe(200);
  const discount = await discountFactory(server, acme.organization.id);
  const token = await confirmationToken(server);
  // The token's last use, written in the background, must not land in the first count.
  await tokenLastUseWritten(server, acme.organization.id);

  const step = async (request: Parameters<TestServer['inject']>[0], status: number) => {
    const { result, statements } = await counter.count(() => server.inject(request));
    expect(result.statusCode, result.body).toBe(status);
    return { body: json(result), statements };
  };

  const createRequest = {
    method: 'POST',
    url: '/v1/checkouts/',
    headers: bearer(acme.token),
    payload: { products: [product.product.id], discount_id: discount.id },
  } as const;
  const create = await step(createRequest, 201);
  const createAgain = await step(createRequest, 201);
  // The same checkout but for what makes each one its own.
  const own = { id: null, client_secret: null, url: null, success_url: null, created_at: null, expires_at: null };
  expect({ ...createAgain.body, ...own }).toEqual({ ...create.body, ...own });
  const secret = create.body.client_secret as string;
  const clientGet = await step({ method: 'GET', url: `/v1/checkouts/client/${secret}` }, 200);
  const clientUpdate = await step(
    {
      method: 'PATCH',
      url: `/v1/checkouts/client/${secret}`,
      payload: {
        customer_email: 'buyer@example.com',
        customer_name: 'Bea Buyer',
        customer_billing_address: ADDRESS,
        custom_field_data: { [field.slug]: 'blue' },
      },
    },
    200,
  );
  const confirm = await step(
    { method: 'POST', url: `/v1/checkouts/client/${secret}/confirm`, payload: { confirmation_token_id: token } },
    200,
  );
  expect(confirm.body.status).toBe('confirmed');
  expect(confirm.body.discount_id).toBe(discount.id);
  // The attempt's number and idempotency key are computed in its insert.
  const attempts = await server.runtime.database.db
    .selectFrom('checkout_payment_attempts')
    .select(['attempt', 'idempotency_key', 'status'])
    .where('checkout_id', '=', create.body.id)
    .execute();
  expect(attempts).toEqual([
    { attempt: 1, idempotency_key: `checkout:${create.body.id}:attempt:1`, status: 'succeeded' },
  ]);

  const steps = { create, createAgain, clientGet, clientUpdate, confirm };
  const counts = Object.fromEntries(Object.entries(steps).map(([name, { statements }]) => [name, statements.length]));
  if (process.env.PRINT_STATEMENTS)
    for (const [name, { statements }] of Object.entries(steps))
      console.log(`--- ${name} (${statements.length})\n${statements.map((s) => s.replace(/\s+/g, ' ')).join('\n')}`);
  expect(counts).toEqual(EXPECTED);
});
