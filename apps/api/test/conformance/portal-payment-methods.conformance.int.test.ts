import { Polar } from '@polar-sh/sdk';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { SDKError } from '@polar-sh/sdk/models/errors/sdkerror.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, confirmationToken } from '../factories/checkouts.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { subscriptionFactory } from '../factories/subscriptions.js';
import { startTestServer, type TestServer } from '../harness.js';

/**
 * The customer's saved payment methods through the official `@polar-sh/sdk@0.33.2`
 * (`customerPortal.customers.getPaymentMethods`, `addPaymentMethod`, `deletePaymentMethod`): every
 * answer passes the SDK's own response validation, or the call throws.
 */
let server: TestServer;
let acme: OrganizationFixture;
let polar: Polar;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  acme = await organizationFactory(server, { name: 'Acme' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
});
afterAll(() => server?.stop());

async function subscriberSecurity(): Promise<{ customerSession: string }> {
  const subscription = await subscriptionFactory(server, acme.organization.id);
  const session = await polar.customerSessions.create({ customerId: subscription.customer_id });
  return { customerSession: session.token };
}

describe('customerPortal.customers payment methods through @polar-sh/sdk', () => {
  it('lists, adds and deletes', async () => {
    const security = await subscriberSecurity();
    const listed = await polar.customerPortal.customers.getPaymentMethods(security, {});
    expect(listed.result.pagination).toEqual({ totalCount: 1, maxPage: 1 });
    expect(listed.result.items).toEqual([
      {
        id: expect.any(String),
        type: 'card',
        createdAt: expect.any(Date),
        default: true,
        card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034, wallet: null },
      },
    ]);
    const original = listed.result.items[0]!;

    const added = await polar.customerPortal.customers.addPaymentMethod(security, {
      confirmationTokenId: await confirmationToken(server, '5555555555554444'),
      setDefault: true,
      returnUrl: 'https://example.com/portal',
    });
    expect(added).toMatchObject({ type: 'card', default: true, card: { brand: 'mastercard', last4: '4444' } });

    const pages: string[] = [];
    for await (const page of await polar.customerPortal.customers.getPaymentMethods(security, { limit: 1 })) {
      pages.push(...page.result.items.map((method) => method.id));
    }
    expect(pages.sort()).toEqual([original.id, added.id].sort());

    await polar.customerPortal.customers.deletePaymentMethod(security, { id: original.id });
    const after = await polar.customerPortal.customers.getPaymentMethods(security, {});
    expect(after.result.items.map((method) => [method.id, method.default])).toEqual([[added.id, true]]);
  });

  it('answers the documented errors', async () => {
    const security = await subscriberSecurity();
    const other = await subscriberSecurity();
    const [own] = (await polar.customerPortal.customers.getPaymentMethods(security, {})).result.items;
    // Another customer's method: 404 ResourceNotFound.
    await expect(polar.customerPortal.customers.deletePaymentMethod(other, { id: own!.id })).rejects.toBeInstanceOf(
      ResourceNotFound,
    );
    // The last method billing the subscription: 400.
    const refused = await polar.customerPortal.customers
      .deletePaymentMethod(security, { id: own!.id })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SDKError);
    expect((refused as SDKError).statusCode).toBe(400);
    expect(JSON.parse((refused as SDKError).body)).toEqual({
      error: 'BadRequest',
      detail:
        'This payment method is still needed to bill a subscription. Add another one or cancel the subscription first.',
    });
    // A declined card: 400 PaymentError.
    const declined = await polar.customerPortal.customers
      .addPaymentMethod(security, {
        confirmationTokenId: await confirmationToken(server, CARDS.declined),
        setDefault: false,
        returnUrl: '/portal',
      })
      .catch((error: unknown) => error);
    expect(declined).toBeInstanceOf(SDKError);
    expect(JSON.parse((declined as SDKError).body).error).toBe('PaymentError');
    // An id that is no UUID: 422.
    await expect(
      polar.customerPortal.customers.deletePaymentMethod(security, { id: 'not-a-uuid' }),
    ).rejects.toBeInstanceOf(HTTPValidationError);
  });
});
