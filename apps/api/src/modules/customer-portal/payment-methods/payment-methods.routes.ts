import { read, write } from '../../../platform/auth/scopes.js';
import { defineRoute, NoContent } from '../../../platform/http/route.js';
import { IdParams } from '../../../platform/http/schemas.js';
import {
  CustomerPaymentMethodCreate,
  CustomerPaymentMethodCreateResponse,
  CustomerPaymentMethodProcessor,
  ListResourcePaymentMethod,
  PaymentMethod,
  PaymentMethodListQuery,
} from './payment-methods.schemas.js';
import {
  addPaymentMethod,
  confirmPaymentMethod,
  deletePaymentMethod,
  listPaymentMethods,
  paymentMethodProcessor,
  setDefaultPaymentMethod,
} from './payment-methods.service.js';

const tags = ['customer_portal'];
const PATH = '/v1/customer-portal/customers/me/payment-methods';

export const portalPaymentMethodRoutes = [
  defineRoute({
    method: 'GET',
    path: PATH,
    operationId: 'customer_portal:customers:get_payment_methods',
    summary: "List the customer's saved payment methods",
    tags,
    auth: { subjects: ['customer'], scopes: read('customer_portal') },
    query: PaymentMethodListQuery,
    status: 200,
    response: ListResourcePaymentMethod,
    handler: (ctx, { query }) => listPaymentMethods(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    path: `${PATH}/processor`,
    operationId: 'customer_portal:customers:get_payment_method_processor',
    summary: 'Which card form saves a payment method (Stripe with its publishable key, or the simulated processor)',
    tags,
    auth: { subjects: ['customer'], scopes: read('customer_portal') },
    status: 200,
    response: CustomerPaymentMethodProcessor,
    handler: async (ctx) => paymentMethodProcessor(ctx),
  }),
  defineRoute({
    method: 'POST',
    path: PATH,
    operationId: 'customer_portal:customers:add_payment_method',
    summary: 'Save a payment method for the customer',
    tags,
    auth: { subjects: ['customer'], scopes: write('customer_portal') },
    body: CustomerPaymentMethodCreate,
    errors: ['PaymentError'],
    status: 201,
    response: CustomerPaymentMethodCreateResponse,
    // Short transactions of its own: none may be open while the payment processor is called.
    transaction: false,
    handler: (ctx, { body }) => addPaymentMethod(ctx, body),
  }),
  defineRoute({
    method: 'POST',
    path: `${PATH}/{id}/confirm`,
    operationId: 'customer_portal:customers:confirm_payment_method',
    summary: 'Finish saving a payment method after the customer authenticated it',
    tags,
    auth: { subjects: ['customer'], scopes: write('customer_portal') },
    params: IdParams,
    errors: ['ResourceNotFound', 'PaymentError'],
    status: 200,
    response: CustomerPaymentMethodCreateResponse,
    transaction: false,
    handler: (ctx, { params }) => confirmPaymentMethod(ctx, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: `${PATH}/{id}/default`,
    operationId: 'customer_portal:customers:set_default_payment_method',
    summary: "Make a payment method the customer's default: its subscriptions are billed to it",
    tags,
    auth: { subjects: ['customer'], scopes: write('customer_portal') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: PaymentMethod,
    handler: (ctx, { params }) => setDefaultPaymentMethod(ctx, params.id),
  }),
  defineRoute({
    method: 'DELETE',
    path: `${PATH}/{id}`,
    operationId: 'customer_portal:customers:delete_payment_method',
    summary: 'Remove a saved payment method',
    tags,
    auth: { subjects: ['customer'], scopes: write('customer_portal') },
    params: IdParams,
    errors: ['ResourceNotFound', 'BadRequest'],
    status: 204,
    response: NoContent,
    transaction: false,
    handler: (ctx, { params }) => deletePaymentMethod(ctx, params.id),
  }),
];
