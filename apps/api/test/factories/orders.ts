import type { CustomerRow } from '../../src/modules/customers/customers.repository.js';
import { createOrder, type CreateOrderInput } from '../../src/modules/orders/orders.service.js';
import type { OrderWire } from '../../src/modules/orders/orders.serializer.js';
import type { ProductBundle } from '../../src/modules/products/products.serializer.js';
import type { TestServer } from '../harness.js';
import { customerFactory } from './customers.js';
import { productFactory } from './products.js';

export interface OrderFactoryOptions extends Partial<Omit<CreateOrderInput, 'organization_id'>> {
  customer?: CustomerRow;
  product?: ProductBundle;
}

/**
 * An order of the organization, created through `createOrder` as the checkout does (its own
 * transaction, no seller subject). A new customer and a $10 one-time product unless given; paid, with
 * one item for the product's first price.
 */
export async function orderFactory(
  server: TestServer,
  organizationId: string,
  options: OrderFactoryOptions = {},
): Promise<OrderWire> {
  const { customer: givenCustomer, product: givenProduct, ...overrides } = options;
  const customer = givenCustomer ?? (await customerFactory(server, organizationId));
  const bundle = givenProduct ?? (await productFactory(server, organizationId));
  const price = bundle.prices[0] ?? null;
  const subtotal = overrides.subtotal_amount ?? price?.price_amount ?? 0;
  const discount = overrides.discount_amount ?? 0;
  const tax = overrides.tax_amount ?? 0;
  const input: CreateOrderInput = {
    organization_id: organizationId,
    customer_id: customer.id,
    product_id: bundle.product.id,
    product_price_id: price?.id ?? null,
    discount_id: null,
    checkout_id: null,
    subscription_id: null,
    billing_reason: bundle.product.recurring_interval ? 'subscription_create' : 'purchase',
    billing_name: customer.name,
    billing_address: null,
    currency: price?.price_currency ?? 'usd',
    status: 'paid',
    items: [
      {
        label: bundle.product.name,
        amount: subtotal,
        tax_amount: 0,
        proration: false,
        product_price_id: price?.id ?? null,
      },
    ],
    ...overrides,
    subtotal_amount: subtotal,
    discount_amount: discount,
    tax_amount: tax,
  };
  return server.runtime.database.db.transaction().execute((db) => createOrder(server.runtime.context(db), input));
}
