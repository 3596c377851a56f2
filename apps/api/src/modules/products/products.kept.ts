import type { Subject } from '../../platform/auth/subject.js';
import { BoundedCache } from '../../platform/bounded-cache.js';
import type { ProductBundle } from './products.serializer.js';

/**
 * Product bundles (a product with its visible prices, benefits, custom fields and medias) kept in the
 * node's memory under their organization's catalogue version (migration 0052: it moves as any write to
 * what a bundle holds commits, whoever wrote it). A request made with an organization token knows the
 * version, read with the token in the authentication's one statement (route.ts
 * `readsTokenOrganization`), before it reads anything else: a bundle read after that is at least as new
 * as the version, and one kept under it is what a read would give until the version moves. Checkout
 * creation takes its products from here instead of five statements.
 *
 * Each caller gets its own copy (the checkout code may change what it is given). Bounded by count, least
 * recently used out first; bundles kept under older versions are never asked for again and age out.
 */
const kept = new BoundedCache<ProductBundle>(2000);

/** The catalogue version the request's organization token read for `organizationId`, if it did. */
export function catalogueVersionOf(subject: Subject, organizationId: string): number | undefined {
  return subject.kind === 'organization' && subject.organization?.id === organizationId
    ? subject.organization.catalogue_version
    : undefined;
}

const keyOf = (organizationId: string, version: number, productId: string) =>
  `${organizationId} ${version} ${productId}`;

/** The bundles of `productIds` in their order, each a copy; undefined unless every one is kept. */
export function keptBundles(
  organizationId: string,
  version: number,
  productIds: readonly string[],
): ProductBundle[] | undefined {
  const bundles: ProductBundle[] = [];
  for (const id of productIds) {
    const bundle = kept.get(keyOf(organizationId, version, id));
    if (!bundle) return undefined;
    bundles.push(bundle);
  }
  return structuredClone(bundles);
}

/** Keeps a copy of each bundle (of `organizationId`'s products, read at or after `version`). */
export function keepBundles(organizationId: string, version: number, bundles: readonly ProductBundle[]): void {
  for (const bundle of structuredClone(bundles)) {
    if (bundle.product.organization_id !== organizationId) continue;
    kept.set(keyOf(organizationId, version, bundle.product.id), bundle);
  }
}
