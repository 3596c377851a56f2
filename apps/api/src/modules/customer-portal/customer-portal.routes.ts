import { portalBenefitGrantRoutes } from './benefit-grants/benefit-grants.routes.js';
import { portalCustomerRoutes } from './customers/customers.routes.js';
import { portalCustomerSessionRoutes } from './customer-session/customer-session.routes.js';
import { portalOAuthAccountRoutes } from './oauth-accounts/oauth-accounts.routes.js';
import { portalOrderRoutes } from './orders/orders.routes.js';
import { portalPaymentMethodRoutes } from './payment-methods/payment-methods.routes.js';
import { portalOrganizationRoutes } from './organizations/organizations.routes.js';
import { portalSubscriptionRoutes } from './subscriptions/subscriptions.routes.js';

/**
 * The customer portal under /v1/customer-portal/, one folder per resource. Its license-key calls live
 * with the license keys module.
 */
export const customerPortalRoutes = [
  ...portalCustomerRoutes,
  ...portalPaymentMethodRoutes,
  ...portalOrderRoutes,
  ...portalSubscriptionRoutes,
  ...portalBenefitGrantRoutes,
  ...portalOAuthAccountRoutes,
  ...portalOrganizationRoutes,
  ...portalCustomerSessionRoutes,
];
