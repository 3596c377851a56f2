import type { Subject } from '../../../platform/auth/subject.js';
import type { Executor } from '../../../platform/db/database.js';
import { paginate } from '../../../platform/db/paginate.js';
import type { BenefitGrantRow, BenefitRow } from '../../benefits/benefits.repository.js';
import { ownedBySessionCustomer } from '../customer-portal.repository.js';
import type { CustomerBenefitGrantListParams } from './benefit-grants.schemas.js';

/**
 * The customer's grants that are in force or on their way: revoked and deleted grants, and grants of
 * deleted benefits, are gone from the portal. A meter credit grant shows once it has credited: before
 * that it has none of the properties its wire shape requires.
 */
function owned(db: Executor, subject: Subject) {
  return db
    .selectFrom('benefit_grants')
    .innerJoin('benefits', 'benefits.id', 'benefit_grants.benefit_id')
    .selectAll('benefit_grants')
    .where(ownedBySessionCustomer(subject, 'benefit_grants.customer_id'))
    .where('benefit_grants.deleted_at', 'is', null)
    .where('benefit_grants.revoked_at', 'is', null)
    .where('benefits.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('benefits.type', '!=', 'meter_credit'), eb('benefit_grants.granted_at', 'is not', null)]));
}

export async function findOwnedGrant(db: Executor, subject: Subject, id: string): Promise<BenefitGrantRow | undefined> {
  return owned(db, subject).where('benefit_grants.id', '=', id).executeTakeFirst();
}

export async function listOwnedGrants(db: Executor, subject: Subject, params: CustomerBenefitGrantListParams) {
  let query = owned(db, subject).innerJoin('organizations', 'organizations.id', 'benefits.organization_id');
  if (params.type?.length) query = query.where('benefits.type', 'in', params.type);
  if (params.benefit_id?.length) query = query.where('benefit_grants.benefit_id', 'in', params.benefit_id);
  if (params.organization_id?.length) query = query.where('benefits.organization_id', 'in', params.organization_id);
  if (params.order_id?.length) query = query.where('benefit_grants.order_id', 'in', params.order_id);
  if (params.subscription_id?.length)
    query = query.where('benefit_grants.subscription_id', 'in', params.subscription_id);
  const checkoutIds = params.checkout_id;
  if (checkoutIds?.length) {
    // A purchase's grants hang off its subscription (recurring) or its order (one-time).
    query = query.where((eb) =>
      eb.or([
        eb(
          'benefit_grants.subscription_id',
          'in',
          eb
            .selectFrom('subscriptions')
            .select('subscriptions.id')
            .where('subscriptions.checkout_id', 'in', checkoutIds),
        ),
        eb(
          'benefit_grants.order_id',
          'in',
          eb.selectFrom('orders').select('orders.id').where('orders.checkout_id', 'in', checkoutIds),
        ),
      ]),
    );
  }
  for (const sort of params.sorting) {
    const direction = sort.descending ? 'desc' : 'asc';
    switch (sort.key) {
      case 'granted_at':
        query = query.orderBy('benefit_grants.granted_at', direction);
        break;
      case 'type':
        query = query.orderBy('benefits.type', direction);
        break;
      case 'organization':
        query = query.orderBy('organizations.slug', direction);
        break;
    }
  }
  return paginate(db, query.orderBy('benefit_grants.id'), params);
}

/** The benefits of a page of grants (deleted ones cannot occur: their grants are not listed). */
export async function findBenefitsByIds(db: Executor, ids: readonly string[]): Promise<Map<string, BenefitRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('benefits')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** One of the customer's grants to change, under its row lock (revoked ones too: they answer 403). */
export async function lockOwnedGrant(db: Executor, subject: Subject, id: string): Promise<BenefitGrantRow | undefined> {
  return db
    .selectFrom('benefit_grants')
    .innerJoin('benefits', 'benefits.id', 'benefit_grants.benefit_id')
    .selectAll('benefit_grants')
    .where(ownedBySessionCustomer(subject, 'benefit_grants.customer_id'))
    .where('benefit_grants.id', '=', id)
    .where('benefit_grants.deleted_at', 'is', null)
    .where('benefits.deleted_at', 'is', null)
    .forUpdate('benefit_grants')
    .executeTakeFirst();
}
