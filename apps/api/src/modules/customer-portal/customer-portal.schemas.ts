import { z } from 'zod/v4';
import { Address } from '../../platform/http/countries.js';
import { DateTime } from '../../platform/http/schemas.js';
import { TaxIdFormatSchema } from '../../platform/http/tax-ids.js';
import { Organization } from '../organizations/organizations.schemas.js';
import {
  BenefitPublic,
  ProductMediaFileRead,
  ProductPrice,
  productFields2026,
  SubscriptionRecurringInterval,
} from '../products/products.schemas.js';

/** Wire shapes every part of the customer portal shares: the customer itself and its products. */

export const CustomerPortalOAuthAccount = z
  .object({ account_id: z.string(), account_username: z.string().nullable() })
  .meta({ id: 'CustomerPortalOAuthAccount' });

/** The customer as it sees itself: no metadata, external id or organization internals. */
export const CustomerPortalCustomer = z
  .object({
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    id: z.uuid(),
    email: z.string(),
    email_verified: z.boolean(),
    name: z.string().nullable(),
    billing_address: Address.nullable(),
    tax_id: z.tuple([z.string(), TaxIdFormatSchema]).nullable(),
    /** Connected accounts by platform (`discord`, `github`), used by the benefits that need one. */
    oauth_accounts: z.record(z.string(), CustomerPortalOAuthAccount),
    credit_balance: z.int().meta({ description: 'Credit in cents that pays the next subscription orders first.' }),
    credit_balances: z.record(z.string(), z.int()).meta({ description: 'The credit balance by currency, in cents.' }),
  })
  .meta({ id: 'CustomerPortalCustomer' });

/** A product as a customer sees it: visible prices, benefits in their public form, no metadata. */
const customerProductShape = {
  created_at: DateTime(),
  modified_at: DateTime().nullable(),
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  recurring_interval: SubscriptionRecurringInterval.nullable(),
  is_recurring: z.boolean(),
  is_archived: z.boolean(),
  organization_id: z.uuid(),
  ...productFields2026,
  prices: z.array(ProductPrice),
  benefits: z.array(BenefitPublic),
  medias: z.array(ProductMediaFileRead),
};

export const CustomerProduct = z.object(customerProductShape).meta({ id: 'CustomerProduct' });

/** What an order or a subscription embeds: the product with its seller. */
export const CustomerOrderProduct = z
  .object({ ...customerProductShape, organization: Organization })
  .meta({ id: 'CustomerOrderProduct' });
export const CustomerSubscriptionProduct = z
  .object({ ...customerProductShape, organization: Organization })
  .meta({ id: 'CustomerSubscriptionProduct' });
