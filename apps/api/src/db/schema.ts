import type { FoundationTables } from './tables/foundation.js';
import type { CustomersTables } from './tables/customers.js';
import type { BenefitsTables } from './tables/benefits.js';
import type { CustomFieldsTables } from './tables/custom-fields.js';
import type { ProductsTables } from './tables/products.js';
import type { DiscountsTables } from './tables/discounts.js';
import type { CheckoutLinksTables } from './tables/checkout-links.js';
import type { OrdersTables } from './tables/orders.js';
import type { CheckoutsTables } from './tables/checkouts.js';
import type { WebhooksTables } from './tables/webhooks.js';
import type { BenefitGrantTables } from './tables/benefit-grants.js';
import type { SubscriptionsTables } from './tables/subscriptions.js';
import type { SubscriptionChangesTables } from './tables/subscription-changes.js';
import type { TestClockTables } from './tables/test-clocks.js';
import type { RateLimitTables } from './tables/rate-limits.js';
import type { IdempotencyKeyTables } from './tables/idempotency-keys.js';
import type { BillingTables } from './tables/billing.js';
import type { PaymentAttemptsTables } from './tables/payment-attempts.js';
import type { PaymentMethodsTables } from './tables/payment-methods.js';
import type { RefundsTables } from './tables/refunds.js';
import type { MeterRollupTables } from './tables/meter-rollups.js';
import type { MetricsTables } from './tables/metrics.js';
import type { TaxTables } from './tables/tax.js';
import type { FilesTables } from './tables/files.js';
import type { OAuth2Tables } from './tables/oauth2.js';
import type { OAuthAccountTables } from './tables/oauth-accounts.js';
import type { EventTypesTables } from './tables/event-types.js';

/**
 * Row types of every table, one file per module under `tables/`, each in step with its migration.
 * A module adds its tables file here.
 */
export interface DB
  extends
    FoundationTables,
    BenefitsTables,
    CustomFieldsTables,
    CustomersTables,
    ProductsTables,
    DiscountsTables,
    CheckoutLinksTables,
    OrdersTables,
    CheckoutsTables,
    WebhooksTables,
    BenefitGrantTables,
    SubscriptionsTables,
    SubscriptionChangesTables,
    TestClockTables,
    PaymentAttemptsTables,
    PaymentMethodsTables,
    BillingTables,
    RefundsTables,
    RateLimitTables,
    IdempotencyKeyTables,
    MeterRollupTables,
    MetricsTables,
    TaxTables,
    FilesTables,
    OAuth2Tables,
    OAuthAccountTables,
    EventTypesTables {}
