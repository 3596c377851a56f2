import type { Insertable, Selectable, Updateable } from 'kysely';
import type { CustomerOAuthAccountsTable, OAuthPlatform } from '../../../db/tables/oauth-accounts.js';
import type { Executor } from '../../../platform/db/database.js';

export type CustomerOAuthAccountRow = Selectable<CustomerOAuthAccountsTable>;

export async function findOAuthAccountsOfCustomers(
  db: Executor,
  customerIds: readonly string[],
): Promise<CustomerOAuthAccountRow[]> {
  if (customerIds.length === 0) return [];
  return db
    .selectFrom('customer_oauth_accounts')
    .selectAll()
    .where('customer_id', 'in', [...new Set(customerIds)])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findOAuthAccount(
  db: Executor,
  customerId: string,
  platform: OAuthPlatform,
  accountId: string,
): Promise<CustomerOAuthAccountRow | undefined> {
  return db
    .selectFrom('customer_oauth_accounts')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('platform', '=', platform)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** The account in the organization, whichever customer connected it (under lock: one owner at a time). */
export async function lockOrganizationOAuthAccount(
  db: Executor,
  organizationId: string,
  platform: OAuthPlatform,
  accountId: string,
): Promise<CustomerOAuthAccountRow | undefined> {
  return db
    .selectFrom('customer_oauth_accounts')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('platform', '=', platform)
    .where('account_id', '=', accountId)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Connects the account to the customer, or refreshes its tokens when it is already theirs. Returns
 * nothing when another customer of the organization holds it (the unique key decides under races).
 */
export async function upsertOAuthAccount(
  db: Executor,
  row: Insertable<CustomerOAuthAccountsTable>,
): Promise<CustomerOAuthAccountRow | undefined> {
  return db
    .insertInto('customer_oauth_accounts')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['organization_id', 'platform', 'account_id'])
        .doUpdateSet((eb) => ({
          modified_at: eb.ref('excluded.created_at'),
          account_username: eb.ref('excluded.account_username'),
          access_token_sealed: eb.ref('excluded.access_token_sealed'),
          refresh_token_sealed: eb.ref('excluded.refresh_token_sealed'),
          expires_at: eb.ref('excluded.expires_at'),
        }))
        .where('customer_oauth_accounts.customer_id', '=', row.customer_id),
    )
    .returningAll()
    .executeTakeFirst();
}

export async function updateOAuthAccountTokens(
  db: Executor,
  id: string,
  values: Updateable<CustomerOAuthAccountsTable>,
): Promise<void> {
  await db.updateTable('customer_oauth_accounts').set(values).where('id', '=', id).execute();
}

export async function deleteOAuthAccount(
  db: Executor,
  customerId: string,
  platform: OAuthPlatform,
  accountId: string,
): Promise<boolean> {
  const deleted = await db
    .deleteFrom('customer_oauth_accounts')
    .where('customer_id', '=', customerId)
    .where('platform', '=', platform)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}
