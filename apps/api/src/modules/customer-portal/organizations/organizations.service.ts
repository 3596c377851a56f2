import type { z } from 'zod/v4';
import type { Context } from '../../../platform/context.js';
import { ResourceNotFound } from '../../../platform/http/errors.js';
import { serializeOrganization } from '../../organizations/organizations.serializer.js';
import { loadProductBundles } from '../../products/products.service.js';
import { serializeCustomerProduct } from '../customer-portal.serializer.js';
import { findLiveOrganizationBySlug, findOfferedProducts } from './organizations.repository.js';
import type { CustomerOrganization } from './organizations.schemas.js';

/** Public: what the portal (or a storefront) shows of an organization before anyone signs in. */
export async function getCustomerOrganization(
  ctx: Context,
  slug: string,
): Promise<z.input<typeof CustomerOrganization>> {
  const organization = await findLiveOrganizationBySlug(ctx.db, slug);
  if (!organization) throw new ResourceNotFound();
  const bundles = await loadProductBundles(ctx.db, await findOfferedProducts(ctx.db, organization.id));
  return { organization: serializeOrganization(organization), products: bundles.map(serializeCustomerProduct) };
}
