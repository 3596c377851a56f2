// @vitest-environment happy-dom
import { customerPortalCustomersGet, customerPortalOrganizationsGet } from '@tessera/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCustomerClient, createPortalClient } from './portal-client';

const CUSTOMER = {
  created_at: '2026-01-05T10:00:00.000Z',
  modified_at: null,
  id: '0f7f2a4e-3c1b-4d7e-9a55-6a4b7d0b7a11',
  email: 'ada@example.com',
  email_verified: false,
  name: 'Ada',
  billing_address: null,
  tax_id: null,
  oauth_accounts: {},
  credit_balance: 0,
  credit_balances: {},
};

function answer(status: number, body: unknown) {
  const stub = vi.fn(
    async (_input: RequestInfo | URL, _init?: RequestInit) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', stub);
  return stub;
}

afterEach(() => vi.unstubAllGlobals());

describe('portal clients', () => {
  it('sends the customer session token as the bearer, without the dashboard cookie', async () => {
    const fetch = answer(200, CUSTOMER);
    const client = createCustomerClient('polar_cst_abc');
    const customer = await customerPortalCustomersGet(client.core, {}, client.auth);
    expect(customer.email).toBe('ada@example.com');
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toMatch(/\/v1\/customer-portal\/customers\/me$/);
    expect(new Headers(init!.headers).get('authorization')).toBe('Bearer polar_cst_abc');
    expect(init!.credentials).toBe('omit');
  });

  it('says when the API refuses the token', async () => {
    answer(401, { error: 'Unauthorized', detail: 'Unauthorized' });
    const onUnauthorized = vi.fn();
    const client = createCustomerClient('polar_cst_expired', onUnauthorized);
    await expect(customerPortalCustomersGet(client.core, {}, client.auth)).rejects.toMatchObject({ statusCode: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('makes public calls without any credentials', async () => {
    const fetch = answer(404, { error: 'ResourceNotFound', detail: 'Not found' });
    await expect(customerPortalOrganizationsGet(createPortalClient(), { slug: 'acme' })).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(new Headers(fetch.mock.calls[0]![1]!.headers).has('authorization')).toBe(false);
  });
});
