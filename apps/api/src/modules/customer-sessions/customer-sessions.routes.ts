import { write } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { CustomerSession, CustomerSessionCreate } from './customer-sessions.schemas.js';
import { serializeCustomerSession } from './customer-sessions.serializer.js';
import { createCustomerSession } from './customer-sessions.service.js';

export const customerSessionRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v1/customer-sessions/',
    operationId: 'customer-sessions:create',
    summary: 'Create a customer session',
    tags: ['customer-sessions'],
    auth: { subjects: ['user', 'organization'], scopes: write('customer_sessions') },
    body: CustomerSessionCreate,
    status: 201,
    response: CustomerSession,
    handler: async (ctx, { body }) => serializeCustomerSession(await createCustomerSession(ctx, body)),
  }),
];
