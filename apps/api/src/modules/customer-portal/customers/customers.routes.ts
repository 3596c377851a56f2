import { read, write } from '../../../platform/auth/scopes.js';
import { defineRoute } from '../../../platform/http/route.js';
import { CustomerPortalCustomer } from '../customer-portal.schemas.js';
import { serializePortalCustomer } from '../customer-portal.serializer.js';
import { CustomerPortalCustomerUpdate } from './customers.schemas.js';
import { getPortalCustomerView, updatePortalCustomer } from './customers.service.js';

const tags = ['customer_portal'];

export const portalCustomerRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/customer-portal/customers/me',
    operationId: 'customer_portal:customers:get',
    summary: 'Get the customer of the session',
    tags,
    auth: { subjects: ['customer'], scopes: read('customer_portal') },
    status: 200,
    response: CustomerPortalCustomer,
    handler: async (ctx) => {
      const view = await getPortalCustomerView(ctx);
      return serializePortalCustomer(view.customer, view.accounts);
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/customer-portal/customers/me',
    operationId: 'customer_portal:customers:update',
    summary: 'Update the customer of the session',
    tags,
    auth: { subjects: ['customer'], scopes: write('customer_portal') },
    body: CustomerPortalCustomerUpdate,
    status: 200,
    response: CustomerPortalCustomer,
    handler: async (ctx, { body }) => {
      const view = await updatePortalCustomer(ctx, body);
      return serializePortalCustomer(view.customer, view.accounts);
    },
  }),
];
