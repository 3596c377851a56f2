import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { productFactory } from '../factories/products.js';
import { bearer, json, type TestServer } from '../harness.js';

/**
 * What a billing scenario does through the public API as its seller: call a route, move the
 * organization's test clock, read the orders and payments of a customer. One organization per scenario,
 * so that each clock moves alone.
 */
export interface ScenarioOrder {
  id: string;
  billing_reason: string;
  status: string;
  subtotal_amount: number;
  discount_amount: number;
  tax_amount: number;
  total_amount: number;
  items: { label: string; amount: number; tax_amount: number; proration: boolean }[];
}

export function billingScenario(server: () => TestServer) {
  async function seller(name = 'Billing scenario'): Promise<OrganizationFixture> {
    return organizationFactory(server(), { name });
  }

  async function monthly(org: OrganizationFixture, amount: number, extra: Record<string, unknown> = {}) {
    const bundle = await productFactory(server(), org.organization.id, {
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: amount }],
      ...extra,
    });
    return bundle.product.id;
  }

  async function call(
    org: OrganizationFixture,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) {
    const response = await server().inject({
      method,
      url,
      headers: bearer(org.token),
      ...(payload ? { payload } : {}),
    });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.statusCode === 204 ? null : json(response);
  }

  async function advance(org: OrganizationFixture, seconds: number): Promise<void> {
    await call(org, 'POST', '/v1/test-clock/advance', { seconds });
  }

  /** Moves the organization's clock to `at` and runs what became due. */
  async function advanceTo(org: OrganizationFixture, at: string | Date): Promise<void> {
    const clock = await call(org, 'GET', '/v1/test-clock/');
    const seconds = Math.ceil((new Date(at).getTime() - new Date(clock.now).getTime()) / 1000);
    if (seconds > 0) await advance(org, seconds);
  }

  async function orders(org: OrganizationFixture, customerId: string): Promise<ScenarioOrder[]> {
    const page = await call(org, 'GET', `/v1/orders/?customer_id=${customerId}&sorting=created_at&limit=100`);
    return page.items as ScenarioOrder[];
  }

  async function succeededPayments(org: OrganizationFixture, customerId: string): Promise<number[]> {
    const page = await call(org, 'GET', `/v1/payments/?customer_id=${customerId}&sorting=created_at&limit=100`);
    return (page.items as { status: string; amount: number }[])
      .filter((p) => p.status === 'succeeded')
      .map((p) => p.amount);
  }

  async function creditBalance(org: OrganizationFixture, customerId: string): Promise<number> {
    return (await call(org, 'GET', `/v1/customers/${customerId}`)).credit_balance as number;
  }

  return { seller, monthly, call, advance, advanceTo, orders, succeededPayments, creditBalance };
}

/** `[billing_reason, total_amount, status]` of each order, in order. */
export const summary = (list: readonly ScenarioOrder[]) =>
  list.map((order) => [order.billing_reason, order.total_amount, order.status]);
