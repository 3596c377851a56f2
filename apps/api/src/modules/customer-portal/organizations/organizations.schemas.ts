import { z } from 'zod/v4';
import { Organization } from '../../organizations/organizations.schemas.js';
import { CustomerProduct } from '../customer-portal.schemas.js';

export const SlugParams = z.object({ slug: z.string().min(1).max(100) });

/** The storefront of the portal: the organization and the products it offers. */
export const CustomerOrganization = z
  .object({ organization: Organization, products: z.array(CustomerProduct) })
  .meta({ id: 'CustomerOrganization' });
