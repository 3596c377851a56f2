import type { Executor } from '../../platform/db/database.js';
import { findOrganizationsByIds } from '../checkouts/checkouts.repository.js';
import type { ProductRow } from '../products/products.repository.js';
import { loadProductBundles } from '../products/products.service.js';
import {
  serializeCustomerProductWithOrganization,
  type CustomerProductWithOrganizationWire,
} from './customer-portal.serializer.js';

/**
 * The products that orders or subscriptions embed, by id, each with its organization: the prices,
 * benefits and organizations of the whole page are loaded at once.
 */
export async function loadProductsWithOrganization(
  db: Executor,
  rows: readonly ProductRow[],
): Promise<Map<string, CustomerProductWithOrganizationWire>> {
  const [bundles, organizations] = await Promise.all([
    loadProductBundles(db, [...rows]),
    findOrganizationsByIds(db, [...new Set(rows.map((row) => row.organization_id))]),
  ]);
  const organizationById = new Map(organizations.map((organization) => [organization.id, organization]));
  return new Map(
    bundles.map((bundle) => [
      bundle.product.id,
      serializeCustomerProductWithOrganization(bundle, organizationById.get(bundle.product.organization_id)!),
    ]),
  );
}
