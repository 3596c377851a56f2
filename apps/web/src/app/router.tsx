import { createBrowserRouter, Navigate } from 'react-router';
import { Loading } from '../components/ui/spinner';
import { RouteError } from './routes/route-error';

/**
 * Every page is its own chunk (`lazy`), loaded when first visited. Paths are the URLs the API server
 * answers with index.html (see the SPA fallback in apps/api/src/app.ts): /login, /signup, /dashboard/*, /invite/*.
 */
export function createRouter() {
  return createBrowserRouter([
    {
      errorElement: <RouteError />,
      hydrateFallbackElement: <Loading />,
      children: [
        { path: '/', element: <Navigate to="/dashboard" replace /> },
        { path: '/login', lazy: () => import('./routes/auth/login') },
        { path: '/signup', lazy: () => import('./routes/auth/signup') },
        {
          path: '/dashboard',
          lazy: () => import('./routes/dashboard/session-layout'),
          children: [
            { index: true, lazy: () => import('./routes/dashboard/choose-organization') },
            { path: 'new', lazy: () => import('./routes/dashboard/new-organization') },
            {
              path: ':slug',
              lazy: () => import('./routes/dashboard/organization-layout'),
              children: [
                { index: true, element: <Navigate to="overview" replace /> },
                { path: 'overview', lazy: () => import('./routes/dashboard/overview') },
                { path: 'products', lazy: () => import('./routes/dashboard/products') },
                { path: 'products/new', lazy: () => import('./routes/dashboard/product-new') },
                { path: 'products/:productId', lazy: () => import('./routes/dashboard/product-edit') },
                { path: 'benefits', lazy: () => import('./routes/dashboard/benefits') },
                { path: 'discounts', lazy: () => import('./routes/dashboard/discounts') },
                { path: 'checkout-links', lazy: () => import('./routes/dashboard/checkout-links') },
                { path: 'customers', lazy: () => import('./routes/dashboard/customers') },
                { path: 'customers/:customerId', lazy: () => import('./routes/dashboard/customer') },
                { path: 'meters', lazy: () => import('./routes/dashboard/meters') },
                { path: 'meters/:meterId', lazy: () => import('./routes/dashboard/meter') },
                { path: 'events', lazy: () => import('./routes/dashboard/events') },
                { path: 'events/:eventId', lazy: () => import('./routes/dashboard/event') },
                { path: 'orders', lazy: () => import('./routes/dashboard/orders') },
                { path: 'orders/:orderId', lazy: () => import('./routes/dashboard/order') },
                { path: 'subscriptions', lazy: () => import('./routes/dashboard/subscriptions') },
                { path: 'subscriptions/:subscriptionId', lazy: () => import('./routes/dashboard/subscription') },
                { path: 'payments', lazy: () => import('./routes/dashboard/payments') },
                { path: 'refunds', lazy: () => import('./routes/dashboard/refunds') },
                { path: 'settings', lazy: () => import('./routes/dashboard/settings') },
                { path: 'settings/access-tokens', lazy: () => import('./routes/dashboard/access-tokens') },
                { path: 'settings/oauth-apps', lazy: () => import('./routes/dashboard/oauth-apps') },
                { path: 'settings/members', lazy: () => import('./routes/dashboard/members') },
                { path: 'license-keys', lazy: () => import('./routes/dashboard/license-keys') },
                { path: 'license-keys/:licenseKeyId', lazy: () => import('./routes/dashboard/license-key') },
                { path: 'settings/webhooks', lazy: () => import('./routes/dashboard/webhooks') },
                { path: 'settings/webhooks/:endpointId', lazy: () => import('./routes/dashboard/webhook-endpoint') },
                { path: 'settings/custom-fields', lazy: () => import('./routes/dashboard/custom-fields') },
                { path: 'settings/tax', lazy: () => import('./routes/dashboard/tax') },
                { path: 'tax-report', lazy: () => import('./routes/dashboard/tax-report') },
              ],
            },
          ],
        },
        { path: '/checkout/:clientSecret', lazy: () => import('./routes/checkout/checkout') },
        { path: '/checkout/:clientSecret/confirmation', lazy: () => import('./routes/checkout/confirmation') },
        {
          path: '/portal/:slug',
          lazy: () => import('./routes/portal/portal-layout'),
          children: [
            { index: true, lazy: () => import('./routes/portal/overview') },
            { path: 'orders', lazy: () => import('./routes/portal/orders') },
            { path: 'orders/:orderId', lazy: () => import('./routes/portal/order') },
            { path: 'subscriptions', lazy: () => import('./routes/portal/subscriptions') },
            { path: 'subscriptions/:subscriptionId', lazy: () => import('./routes/portal/subscription') },
            { path: 'benefits', lazy: () => import('./routes/portal/benefits') },
            { path: 'usage', lazy: () => import('./routes/portal/usage') },
            { path: 'downloads', lazy: () => import('./routes/portal/downloads') },
            { path: 'payment-methods', lazy: () => import('./routes/portal/payment-methods') },
            { path: 'profile', lazy: () => import('./routes/portal/profile') },
          ],
        },
        { path: '/oauth2/authorize', lazy: () => import('./routes/oauth2/authorize') },
        { path: '/invite/:token', lazy: () => import('./routes/invite') },
        { path: '/:slug/portal/*', lazy: () => import('./routes/portal/legacy-redirect') },
        { path: '*', lazy: () => import('./routes/not-found') },
      ],
    },
  ]);
}
