import { z } from 'zod/v4';
import { oneOrList, paginationQuery, queryBool, sortingQuery } from '../../platform/http/query.js';
import { Id } from '../../platform/http/schemas.js';

/** `GET /v1/benefit-grants/`: the reference's filters (each id filter one or many), `-created_at` first. */
export const BenefitGrantsListQuery = z.object({
  organization_id: oneOrList(Id(), 'Filter by organization ID.'),
  customer_id: oneOrList(Id(), 'Filter by customer ID.'),
  external_customer_id: oneOrList(z.string(), 'Filter by customer external ID.'),
  // true: granted grants; false: grants not granted (revoked, and pending or failed ones, as the reference).
  is_granted: queryBool(),
  ...paginationQuery,
  sorting: sortingQuery<'created_at' | 'granted_at' | 'revoked_at'>(
    ['created_at', 'granted_at', 'revoked_at'],
    ['-created_at'],
  ),
});
export type BenefitGrantsListParams = z.output<typeof BenefitGrantsListQuery>;
