import { Polar } from '@polar-sh/sdk-0.49';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/platform/clock.js';
import { confirmationToken } from '../factories/checkouts.js';
import { customerFactory } from '../factories/customers.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { bearer, json, startTestServer, type TestServer } from '../harness.js';
import { withZodIssues } from './issues.js';

/**
 * `customers.listPaymentMethods` and `customers.listPaymentMethodsExternal` through
 * `@polar-sh/sdk@0.49`: a card saved in the portal passes the SDK's validation as a
 * `CustomerPaymentMethodCard`.
 */
let server: TestServer;
let acme: OrganizationFixture;
let polar: Polar;
let customerId: string;
let cardId: string;

beforeAll(async () => {
  server = await startTestServer({ listen: true, clock: systemClock });
  acme = await organizationFactory(server, { name: 'Acme' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
  customerId = (await customerFactory(server, acme.organization.id, { external_id: 'sdk-pm' })).id;
  const session = json(
    await server.inject({
      method: 'POST',
      url: '/v1/customer-sessions/',
      headers: bearer(acme.token),
      payload: { customer_id: customerId },
    }),
  ).token as string;
  const added = await server.inject({
    method: 'POST',
    url: '/v1/customer-portal/customers/me/payment-methods',
    headers: bearer(session),
    payload: {
      confirmation_token_id: await confirmationToken(server, '4242424242424242'),
      set_default: true,
      return_url: '/portal/acme/payment-methods',
    },
  });
  cardId = json(added).id;
});
afterAll(() => server?.stop());

describe('customer payment methods through @polar-sh/sdk@0.49', () => {
  it('customers.listPaymentMethods reads the saved card', async () => {
    const page = await withZodIssues(() => polar.customers.listPaymentMethods({ id: customerId }));
    expect(page.result.items).toEqual([
      expect.objectContaining({
        id: cardId,
        customerId,
        isDefault: true,
        processor: 'stripe',
        type: 'card',
        methodMetadata: expect.objectContaining({ brand: 'visa', last4: '4242' }),
      }),
    ]);
  });

  it('customers.listPaymentMethodsExternal reads them by external id', async () => {
    const page = await withZodIssues(() => polar.customers.listPaymentMethodsExternal({ externalId: 'sdk-pm' }));
    expect(page.result.items.map((method) => method.id)).toEqual([cardId]);
    expect(page.result.pagination.totalCount).toBe(1);
  });
});
