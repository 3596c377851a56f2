import { PUBLIC } from '../../../platform/auth/subject.js';
import { defineRoute } from '../../../platform/http/route.js';
import { CustomerOrganization, SlugParams } from './organizations.schemas.js';
import { getCustomerOrganization } from './organizations.service.js';

export const portalOrganizationRoutes = [
  // Public, as the portal's sign-in page needs it; the SDK sends a seller token when it has one.
  defineRoute({
    method: 'GET',
    path: '/v1/customer-portal/organizations/{slug}',
    operationId: 'customer_portal:organizations:get',
    summary: 'Get an organization for the customer portal',
    tags: ['customer_portal'],
    auth: PUBLIC,
    params: SlugParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: CustomerOrganization,
    handler: (ctx, { params }) => getCustomerOrganization(ctx, params.slug),
  }),
];
