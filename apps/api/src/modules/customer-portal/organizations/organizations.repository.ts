import { sql } from 'kysely';
import type { Executor } from '../../../platform/db/database.js';
import type { OrganizationRow } from '../../organizations/organizations.repository.js';
import type { ProductRow } from '../../products/products.repository.js';

/** A live organization by slug, case-insensitively (slugs are unique that way). */
export async function findLiveOrganizationBySlug(db: Executor, slug: string): Promise<OrganizationRow | undefined> {
  return db
    .selectFrom('organizations')
    .selectAll()
    .where(sql`lower(slug)`, '=', slug.toLowerCase())
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The products the organization offers: every product not archived, oldest first. */
export async function findOfferedProducts(db: Executor, organizationId: string): Promise<ProductRow[]> {
  return db
    .selectFrom('products')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('is_archived', '=', false)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
