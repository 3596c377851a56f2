import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { organizationFactory } from '../factories/organizations.js';
import type { TestServer } from '../harness.js';
import type { Action, Plan, Scenario } from './model.js';

/**
 * Runs a scenario through the public HTTP API of a test server, as a seller and a buyer would: one
 * organization per run, its products and discount, a checkout paid with the simulated card, seller
 * changes on the subscription, and the organization's test clock moved straight to each instant where
 * something is due. Returns what the API shows at the end.
 */

export interface WireItem {
  label: string;
  amount: number;
  tax_amount: number;
  proration: boolean;
}

export interface WireOrder {
  id: string;
  created_at: string;
  status: string;
  billing_reason: string;
  subtotal_amount: number;
  discount_amount: number;
  net_amount: number;
  tax_amount: number;
  total_amount: number;
  /** Credit balance the order used, and what was left to charge. */
  applied_balance_amount?: number;
  due_amount?: number;
  product_id: string;
  items: WireItem[];
}

export interface WirePayment {
  created_at: string;
  status: string;
  amount: number;
  order_id: string | null;
}

export interface WireSubscription {
  id: string;
  status: string;
  current_period_start: string;
  current_period_end: string | null;
  cancel_at_period_end: boolean;
  ended_at: string | null;
  product_id: string;
  customer_id: string;
  trial_start?: string | null;
  trial_end?: string | null;
}

export interface Observed {
  orders: WireOrder[];
  payments: WirePayment[];
  subscription: WireSubscription;
  /** Product id → the grid's plan name. */
  plans: Record<string, string>;
  /** `credit_balance` of the customer, undefined when the API does not show it. */
  creditBalance: number | undefined;
  stateCreditBalance: number | undefined;
  /** HTTP calls that did not answer as a seller would expect (a change refused, a 500…). */
  errors: string[];
}

const ADDRESS = { country: 'US', line1: '1 Main Street', city: 'Springfield', postal_code: '12345', state: 'US-IL' };
/** The buyer of a taxed cell: in France, where the seller collects VAT. */
const FRENCH_ADDRESS = { country: 'FR', line1: '1 rue de Rivoli', city: 'Paris', postal_code: '75001' };
const VISA = '4242424242424242';

class Api {
  readonly errors: string[] = [];
  constructor(
    private readonly server: TestServer,
    private readonly token: string | null,
  ) {}

  async call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object): Promise<any> {
    if (process.env.BILLING_GRID_DEBUG)
      console.log(new Date().toISOString(), method, url, JSON.stringify(payload ?? {}));
    const response: LightMyRequestResponse = await this.server.inject({
      method,
      url,
      headers: this.token ? { authorization: `Bearer ${this.token}` } : {},
      ...(payload ? { payload } : {}),
    });
    if (response.statusCode >= 300) {
      this.errors.push(
        `${method} ${url.replace(/\/[\w-]{20,}/g, '/…')} → ${response.statusCode} ${response.body.slice(0, 200)}`,
      );
      return undefined;
    }
    return response.body ? JSON.parse(response.body) : undefined;
  }
}

/** The card a customer saved, as the simulated processor keeps it: no public API changes it, so it is set here. */
async function setCard(server: TestServer, customerId: string, works: boolean): Promise<void> {
  await server.runtime.database.db
    .updateTable('simulated_payment_methods')
    .set({ outcome: works ? 'succeed' : 'charge_declined_after_attach' })
    .where('customer_id', '=', customerId)
    .execute();
}

export async function runScenario(server: TestServer, scenario: Scenario, dueTimes: Date[]): Promise<Observed> {
  const { token } = await organizationFactory(server, { name: 'Billing grid' });
  const api = new Api(server, token);
  const taxed = (scenario.taxBasisPoints ?? 0) > 0;
  if (taxed) {
    const registered = await api.call('POST', '/v1/tax-registrations/', {
      country: 'FR',
      rate_basis_points: scenario.taxBasisPoints,
      label: 'VAT',
    });
    if (!registered) throw new Error(`tax registration: ${api.errors.at(-1)}`);
  }
  const plans: Record<string, string> = {};
  const productIds = new Map<string, string>();

  const trial = scenario.trial ?? null;
  const createProduct = async (plan: Plan, trialOf = false) => {
    const product = await api.call('POST', '/v1/products/', {
      name: `Plan ${plan.name} ${randomBytes(2).toString('hex')}`,
      recurring_interval: plan.interval,
      prices: [{ amount_type: 'fixed', price_currency: 'usd', price_amount: plan.price }],
      ...(trialOf && trial
        ? {
            trial_interval: trial.interval,
            trial_interval_count: trial.count,
            trial_requires_payment_method: trial.cardAtCheckout,
          }
        : {}),
    });
    if (!product) throw new Error(`product: ${api.errors.at(-1)}`);
    plans[product.id] = plan.name;
    productIds.set(plan.name, product.id);
    return product.id as string;
  };

  let now = new Date((await api.call('GET', '/v1/test-clock/')).now).getTime();
  const advanceTo = async (at: Date) => {
    const seconds = Math.round((at.getTime() - now) / 1000);
    if (seconds <= 0) return;
    const moved = await api.call('POST', '/v1/test-clock/advance', { seconds });
    if (!moved) throw new Error(`advance: ${api.errors.at(-1)}`);
    now = new Date(moved.now).getTime();
  };

  await advanceTo(scenario.start);
  const baseId = await createProduct(scenario.plan, true);
  for (const { action } of scenario.actions)
    if (action.kind === 'change_product' && !productIds.has(action.to.name)) await createProduct(action.to);

  let discountId: string | null = null;
  if (scenario.discount) {
    const spec = scenario.discount;
    const discount = await api.call('POST', '/v1/discounts/', {
      name: `Grid ${spec.duration} ${spec.type}`,
      type: spec.type,
      duration: spec.duration,
      ...(spec.duration === 'repeating' ? { duration_in_months: spec.months } : {}),
      ...(spec.type === 'percentage' ? { basis_points: spec.basisPoints } : { amount: spec.amount, currency: 'usd' }),
    });
    if (!discount) throw new Error(`discount: ${api.errors.at(-1)}`);
    discountId = discount.id;
  }

  const checkout = await api.call('POST', '/v1/checkouts/', {
    products: [baseId],
    ...(discountId && scenario.discountAt === 'checkout' ? { discount_id: discountId } : {}),
  });
  if (!checkout) throw new Error(`checkout: ${api.errors.at(-1)}`);
  const buyer = new Api(server, null);
  const cardToken = async (): Promise<string | undefined> =>
    (
      await buyer.call('POST', '/simulated-processor/confirmation-tokens', {
        card: { number: VISA, exp_month: 12, exp_year: 2040, cvc: '123' },
      })
    )?.id;
  // A card-less trial's checkout asks for no card.
  const confirmation = trial && !trial.cardAtCheckout ? undefined : await cardToken();
  const confirmed = await buyer.call('POST', `/v1/checkouts/client/${checkout.client_secret}/confirm`, {
    customer_email: `grid-${randomBytes(4).toString('hex')}@example.com`,
    customer_name: 'Grid Buyer',
    customer_billing_address: taxed ? FRENCH_ADDRESS : ADDRESS,
    ...(confirmation ? { confirmation_token_id: confirmation } : {}),
  });
  if (!confirmed) throw new Error(`confirm: ${buyer.errors.join('; ')}`);
  const listed = await api.call('GET', '/v1/subscriptions/?limit=1');
  const subscription: WireSubscription | undefined = listed?.items?.[0];
  if (!subscription) throw new Error('no subscription after the checkout');
  const id = subscription.id;

  const perform = async (action: Action) => {
    switch (action.kind) {
      case 'card_declines':
      case 'card_works':
        return setCard(server, subscription.customer_id, action.kind === 'card_works');
      case 'set_discount':
        return api.call('PATCH', `/v1/subscriptions/${id}`, { discount_id: discountId });
      case 'change_product':
        return api.call('PATCH', `/v1/subscriptions/${id}`, {
          product_id: productIds.get(action.to.name),
          proration_behavior: action.behavior,
        });
      case 'cancel_at_period_end':
        return api.call('PATCH', `/v1/subscriptions/${id}`, { cancel_at_period_end: true });
      case 'uncancel':
        return api.call('PATCH', `/v1/subscriptions/${id}`, { cancel_at_period_end: false });
      case 'revoke':
        return api.call('DELETE', `/v1/subscriptions/${id}`);
      case 'add_card': {
        // The customer adds a card in the portal; it becomes the default that bills the subscription.
        const session = await api.call('POST', '/v1/customer-sessions/', { customer_id: subscription.customer_id });
        const customer = new Api(server, session?.token ?? null);
        const added = await customer.call('POST', '/v1/customer-portal/customers/me/payment-methods', {
          confirmation_token_id: await cardToken(),
          set_default: true,
          return_url: '/portal/grid/payment-methods',
        });
        api.errors.push(...customer.errors);
        return added;
      }
    }
  };

  // Every instant where the model expects something, in time order; actions come after what is due with them.
  const stops = [
    ...dueTimes.map((at) => ({ at, action: null as Action | null })),
    ...scenario.actions.map(({ at, action }) => ({ at, action: action as Action | null })),
    { at: scenario.horizon, action: null },
  ].sort((a, b) => a.at.getTime() - b.at.getTime() || (a.action ? 1 : 0) - (b.action ? 1 : 0));
  for (const stop of stops) {
    await advanceTo(stop.at);
    if (!stop.action) continue;
    await perform(stop.action);
    // An order billed at a change or a revoke is charged by the billing run: one second on runs it (and waits for it).
    if (stop.action.kind === 'change_product' || stop.action.kind === 'revoke')
      await advanceTo(new Date(stop.at.getTime() + 1000));
  }

  const orders = await api.call('GET', '/v1/orders/?limit=100&sorting=created_at');
  const payments = await api.call('GET', '/v1/payments/?limit=100&sorting=created_at');
  const final = await api.call('GET', `/v1/subscriptions/${id}`);
  const customer = await api.call('GET', `/v1/customers/${subscription.customer_id}`);
  const state = await api.call('GET', `/v1/customers/${subscription.customer_id}/state`);
  return {
    orders: orders?.items ?? [],
    payments: payments?.items ?? [],
    subscription: final ?? subscription,
    plans,
    creditBalance: customer?.credit_balance,
    stateCreditBalance: state?.credit_balance,
    errors: [...api.errors, ...buyer.errors],
  };
}
