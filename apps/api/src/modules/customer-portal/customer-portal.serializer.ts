import type { z } from 'zod/v4';
import { serializeAddress } from '../../platform/http/countries.js';
import { iso } from '../../platform/http/schemas.js';
import type { CustomerRow } from '../customers/customers.repository.js';
import { creditBalanceOf } from '../customers/customers.serializer.js';
import type { OrganizationRow } from '../organizations/organizations.repository.js';
import { serializeOrganization } from '../organizations/organizations.serializer.js';
import { serializeCheckoutLinkProduct, type ProductBundle } from '../products/products.serializer.js';
import type { CustomerOrderProduct, CustomerPortalCustomer, CustomerProduct } from './customer-portal.schemas.js';

export type CustomerPortalCustomerWire = z.input<typeof CustomerPortalCustomer>;
export type CustomerProductWire = z.input<typeof CustomerProduct>;
/** The product an order or a subscription embeds (both wire shapes are the same). */
export type CustomerProductWithOrganizationWire = z.input<typeof CustomerOrderProduct>;

/** A connected account as the portal lists it. */
export interface PortalOAuthAccount {
  platform: string;
  account_id: string;
  account_username: string | null;
}

export function serializePortalCustomer(
  row: CustomerRow,
  accounts: readonly PortalOAuthAccount[],
): CustomerPortalCustomerWire {
  return {
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    email: row.email,
    email_verified: row.email_verified,
    name: row.name,
    billing_address: serializeAddress(row.billing_address),
    tax_id: (row.tax_id ?? null) as CustomerPortalCustomerWire['tax_id'],
    // Keyed `platform:account_id`, as the reference keys them.
    oauth_accounts: Object.fromEntries(
      accounts.map((account) => [
        `${account.platform}:${account.account_id}`,
        { account_id: account.account_id, account_username: account.account_username },
      ]),
    ),
    ...creditBalanceOf(row),
  };
}

/** The checkout's view of a product (visible prices, public benefits) without the seller's metadata. */
export function serializeCustomerProduct(bundle: Omit<ProductBundle, 'customFields'>): CustomerProductWire {
  const { metadata: _metadata, ...product } = serializeCheckoutLinkProduct(bundle);
  return product;
}

export function serializeCustomerProductWithOrganization(
  bundle: Omit<ProductBundle, 'customFields'>,
  organization: OrganizationRow,
): CustomerProductWithOrganizationWire {
  return { ...serializeCustomerProduct(bundle), organization: serializeOrganization(organization) };
}
