import type { AnyRoute } from '../platform/http/route.js';
import type { JobDefinition } from '../platform/jobs/queue.js';
import { authRoutes } from './auth/auth.routes.js';
import { customerRoutes } from './customers/customers.routes.js';
import { customerSessionRoutes } from './customer-sessions/customer-sessions.routes.js';
import { organizationAccessTokenRoutes } from './organization-access-tokens/organization-access-tokens.routes.js';
import { organizationRoutes } from './organizations/organizations.routes.js';
import { organizationMemberRoutes } from './organization-members/organization-members.routes.js';
import { benefitRoutes } from './benefits/benefits.routes.js';
import { customFieldRoutes } from './custom-fields/custom-fields.routes.js';
import { productRoutes } from './products/products.routes.js';
import { discountRoutes } from './discounts/discounts.routes.js';
import { checkoutLinkRoutes } from './checkout-links/checkout-links.routes.js';
import { orderRoutes } from './orders/orders.routes.js';
import { generateInvoiceJob } from './orders/orders.invoice.js';
import { generateReceiptJob } from './orders/orders.receipt.js';
import { paymentRoutes } from './payments/payments.routes.js';
import { webhookRoutes } from './webhooks/webhooks.routes.js';
import { sendEmailJob, sweepEmailsJob, sweepEmailsSchedule } from '../platform/mail/sender.js';
import { emailRoutes } from './emails/emails.routes.js';
import { checkoutRoutes } from './checkouts/checkouts.routes.js';
import { refundRoutes } from './refunds/refunds.routes.js';
import { disputeRoutes } from './disputes/index.js';
import { reconcileRefundsJob, reconcileRefundsSchedule } from './refunds/refunds.settle.js';
import { expireCheckoutsJob, expireCheckoutsSchedule } from './checkouts/checkouts.expire.js';
import { reconcileCheckoutPaymentsJob, reconcileCheckoutPaymentsSchedule } from './checkouts/checkouts.reconcile.js';
import type { PeriodicTask } from '../platform/jobs/periodic.js';
import { licenseKeyRoutes } from './license-keys/license-keys.routes.js';
import { searchRoutes } from './search/search.routes.js';
import { integrationRoutes } from './integrations/integrations.routes.js';
import { customerPortalRoutes } from './customer-portal/customer-portal.routes.js';
import { portalMeterRoutes } from './customer-portal/meters/meters.routes.js';
import { eventRoutes } from './events/events.routes.js';
import { eventTypeRoutes } from './event-types/event-types.routes.js';
import { customerStateChangesJob, customerStateChangesSchedule, eventsIngestedJob } from './events/events.jobs.js';
import { meterRollupsJob, meterRollupsSchedule } from './meters/meters.rollups.js';
import { metricsHoursJob, metricsHoursSchedule } from './metrics/metrics.hours.js';
import { meterRoutes } from './meters/meters.routes.js';
import { customerMeterRoutes } from './customer-meters/customer-meters.routes.js';
import { benefitGrantJobs } from './benefit-grants/benefit-grants.jobs.js';
import { benefitGrantRoutes } from './benefit-grants/benefit-grants.routes.js';
import { subscriptionRoutes } from './subscriptions/subscriptions.routes.js';
import { testClockRoutes } from './test-clock/test-clock.routes.js';
import { taxSettingsRoutes } from './tax-settings/tax-settings.routes.js';
import { taxRegistrationRoutes } from './tax-registrations/tax-registrations.routes.js';
import { taxReportRoutes } from './tax-reports/tax-reports.routes.js';
import { metricRoutes } from './metrics/metrics.routes.js';
import {
  reverseStripeTaxRefundsJob,
  reverseStripeTaxRefundsSchedule,
} from './tax-settings/tax-settings.stripe-reversals.js';
import { recordStripeTaxTransactionJob } from './tax-settings/tax-settings.stripe-transactions.js';
import { fileRoutes } from './files/files.routes.js';
import { cleanAbandonedUploadsJob, cleanAbandonedUploadsSchedule } from './files/files.cleanup.js';
import { subscriptionBillingJob, subscriptionBillingSchedule } from './subscriptions/subscriptions.renewal.js';
import { cancelCustomerSubscriptionsJob } from './subscriptions/subscriptions.jobs.js';
import { retryPastDueChargeJob } from './customer-portal/payment-methods/payment-methods.defaults.js';
import { cleanRateLimitsJob, cleanRateLimitsSchedule } from '../platform/http/rate-limit.js';
import { cleanIdempotencyKeysJob, cleanIdempotencyKeysSchedule } from '../platform/http/idempotency.js';
import { cleanOAuth2StoreJob, cleanOAuth2StoreSchedule } from './oauth2/oauth2.jobs.js';
import { cleanConnectStatesJob, cleanConnectStatesSchedule } from './integrations/integrations.jobs.js';
import { oauth2Routes } from './oauth2/oauth2.routes.js';

/** Every API route, in one list: the server registers it and OpenAPI is generated from it. */
export const routes: AnyRoute[] = [
  ...authRoutes,
  ...organizationRoutes,
  ...organizationMemberRoutes,
  ...organizationAccessTokenRoutes,
  ...benefitRoutes,
  ...benefitGrantRoutes,
  ...customFieldRoutes,
  ...customerRoutes,
  ...customerSessionRoutes,
  ...productRoutes,
  ...discountRoutes,
  ...checkoutLinkRoutes,
  ...checkoutRoutes,
  ...orderRoutes,
  ...paymentRoutes,
  ...refundRoutes,
  ...disputeRoutes,
  ...subscriptionRoutes,
  ...webhookRoutes,
  ...licenseKeyRoutes,
  ...searchRoutes,
  ...customerPortalRoutes,
  ...integrationRoutes,
  ...portalMeterRoutes,
  ...eventRoutes,
  ...eventTypeRoutes,
  ...meterRoutes,
  ...customerMeterRoutes,
  ...testClockRoutes,
  ...metricRoutes,
  ...taxSettingsRoutes,
  ...taxRegistrationRoutes,
  ...taxReportRoutes,
  ...emailRoutes,
  ...fileRoutes,
  // Described in OpenAPI only: served by oauth2/oauth2.http.ts (OAuth's wire).
  ...oauth2Routes,
];

/** Every background job the worker runs. */
export const jobs: JobDefinition<never>[] = [
  expireCheckoutsJob as JobDefinition<never>,
  reconcileCheckoutPaymentsJob as JobDefinition<never>,
  reconcileRefundsJob as JobDefinition<never>,
  reverseStripeTaxRefundsJob as JobDefinition<never>,
  recordStripeTaxTransactionJob as JobDefinition<never>,
  subscriptionBillingJob as JobDefinition<never>,
  cancelCustomerSubscriptionsJob as JobDefinition<never>,
  retryPastDueChargeJob as JobDefinition<never>,
  ...(benefitGrantJobs as JobDefinition<never>[]),
  cleanRateLimitsJob as JobDefinition<never>,
  cleanIdempotencyKeysJob as JobDefinition<never>,
  eventsIngestedJob as JobDefinition<never>,
  customerStateChangesJob as JobDefinition<never>,
  meterRollupsJob as JobDefinition<never>,
  metricsHoursJob as JobDefinition<never>,
  sendEmailJob as JobDefinition<never>,
  sweepEmailsJob as JobDefinition<never>,
  generateInvoiceJob as JobDefinition<never>,
  generateReceiptJob as JobDefinition<never>,
  cleanAbandonedUploadsJob as JobDefinition<never>,
  cleanOAuth2StoreJob as JobDefinition<never>,
  cleanConnectStatesJob as JobDefinition<never>,
];

/** Jobs the worker enqueues periodically (by the app clock). */
export const periodicTasks: PeriodicTask[] = [
  expireCheckoutsSchedule,
  reconcileCheckoutPaymentsSchedule,
  reconcileRefundsSchedule,
  reverseStripeTaxRefundsSchedule,
  subscriptionBillingSchedule,
  cleanRateLimitsSchedule,
  cleanIdempotencyKeysSchedule,
  meterRollupsSchedule,
  metricsHoursSchedule,
  customerStateChangesSchedule,
  sweepEmailsSchedule,
  cleanAbandonedUploadsSchedule,
  cleanOAuth2StoreSchedule,
  cleanConnectStatesSchedule,
];
