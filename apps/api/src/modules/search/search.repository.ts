import { sql } from 'kysely';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { RESULTS_PER_TYPE } from './search.schemas.js';

/**
 * Every lookup here is an index range scan that stops after a few rows, whatever the table's size:
 * an id is a primary key; a prefix of an email, a name or a license key is read in order from the
 * C-collated indexes of migration 0042 (`x COLLATE "C" LIKE 'abc%'` is a range of them), one
 * query per column so each can stop at RESULTS_PER_TYPE; orders, subscriptions and license keys of the
 * customers found are read through their customer indexes. Nothing searches inside a value.
 */
export interface SearchTerms {
  /** The query when it is a UUID (else null: a cast of anything else would fail). */
  id: string | null;
  /** The query lowercased with LIKE's wildcards escaped, ending in `%`. */
  prefix: string;
  /** The query as typed, for exact codes (invoice numbers). */
  exact: string;
  organizationId: string | undefined;
}

export interface CustomerHit {
  id: string;
  organization_id: string;
  email: string;
  name: string | null;
}

const limit = RESULTS_PER_TYPE;

export async function searchCustomers(db: Executor, subject: Subject, terms: SearchTerms): Promise<CustomerHit[]> {
  const base = () =>
    db
      .selectFrom('customers')
      .select(['id', 'organization_id', 'email', 'name'])
      .where('deleted_at', 'is', null)
      .where(organizationVisibleTo(subject, 'customers.organization_id'))
      .$if(terms.organizationId !== undefined, (query) =>
        query.where('customers.organization_id', '=', terms.organizationId!),
      );
  const [byId, byEmail, byName] = await Promise.all([
    terms.id ? base().where('id', '=', terms.id).execute() : Promise.resolve([]),
    base()
      .where(sql`lower(customers.email) collate "C"`, 'like', terms.prefix)
      .orderBy(sql`lower(customers.email) collate "C"`)
      .limit(limit)
      .execute(),
    base()
      .where(sql`lower(customers.name) collate "C"`, 'like', terms.prefix)
      .orderBy(sql`lower(customers.name) collate "C"`)
      .limit(limit)
      .execute(),
  ]);
  return firstDistinct([...byId, ...byEmail, ...byName]);
}

export async function searchProducts(db: Executor, subject: Subject, terms: SearchTerms) {
  const base = () =>
    db
      .selectFrom('products')
      .select(['id', 'organization_id', 'name', 'is_archived', 'recurring_interval'])
      .where(organizationVisibleTo(subject, 'products.organization_id'))
      .$if(terms.organizationId !== undefined, (query) =>
        query.where('products.organization_id', '=', terms.organizationId!),
      );
  const [byId, byName] = await Promise.all([
    terms.id ? base().where('id', '=', terms.id).execute() : Promise.resolve([]),
    base()
      .where(sql`lower(products.name) collate "C"`, 'like', terms.prefix)
      .orderBy(sql`lower(products.name) collate "C"`)
      .limit(limit)
      .execute(),
  ]);
  return firstDistinct([...byId, ...byName]);
}

/** Orders by id, by invoice number, or of the customers found (newest first). */
export async function searchOrders(db: Executor, subject: Subject, terms: SearchTerms, customerIds: string[]) {
  const base = () =>
    db
      .selectFrom('orders')
      .innerJoin('products', 'products.id', 'orders.product_id')
      .innerJoin('customers', 'customers.id', 'orders.customer_id')
      .select([
        'orders.id',
        'orders.organization_id',
        'orders.invoice_number',
        'orders.total_amount',
        'orders.currency',
        'orders.created_at',
        'products.name as product_name',
        'customers.email as customer_email',
      ])
      .where(organizationVisibleTo(subject, 'orders.organization_id'))
      .$if(terms.organizationId !== undefined, (query) =>
        query.where('orders.organization_id', '=', terms.organizationId!),
      );
  const [byId, byNumber, byCustomer] = await Promise.all([
    terms.id ? base().where('orders.id', '=', terms.id).execute() : Promise.resolve([]),
    base().where('orders.invoice_number', '=', terms.exact).limit(limit).execute(),
    customerIds.length
      ? base()
          .where('orders.customer_id', 'in', customerIds)
          .orderBy('orders.created_at', 'desc')
          .limit(limit)
          .execute()
      : Promise.resolve([]),
  ]);
  return firstDistinct([...byId, ...byNumber, ...byCustomer]);
}

/** Subscriptions by id or of the customers found (newest first). */
export async function searchSubscriptions(db: Executor, subject: Subject, terms: SearchTerms, customerIds: string[]) {
  const base = () =>
    db
      .selectFrom('subscriptions')
      .innerJoin('products', 'products.id', 'subscriptions.product_id')
      .innerJoin('customers', 'customers.id', 'subscriptions.customer_id')
      .select([
        'subscriptions.id',
        'subscriptions.organization_id',
        'subscriptions.status',
        'products.name as product_name',
        'customers.email as customer_email',
      ])
      .where(organizationVisibleTo(subject, 'subscriptions.organization_id'))
      .$if(terms.organizationId !== undefined, (query) =>
        query.where('subscriptions.organization_id', '=', terms.organizationId!),
      );
  const [byId, byCustomer] = await Promise.all([
    terms.id ? base().where('subscriptions.id', '=', terms.id).execute() : Promise.resolve([]),
    customerIds.length
      ? base()
          .where('subscriptions.customer_id', 'in', customerIds)
          .orderBy('subscriptions.created_at', 'desc')
          .limit(limit)
          .execute()
      : Promise.resolve([]),
  ]);
  return firstDistinct([...byId, ...byCustomer]);
}

/** License keys by id, by the start of the key (keys are upper case), or of the customers found. */
export async function searchLicenseKeys(db: Executor, subject: Subject, terms: SearchTerms, customerIds: string[]) {
  const base = () =>
    db
      .selectFrom('license_keys')
      .innerJoin('customers', 'customers.id', 'license_keys.customer_id')
      .select([
        'license_keys.id',
        'license_keys.organization_id',
        'license_keys.key',
        'license_keys.status',
        'customers.email as customer_email',
      ])
      .where('license_keys.deleted_at', 'is', null)
      .where(organizationVisibleTo(subject, 'license_keys.organization_id'))
      .$if(terms.organizationId !== undefined, (query) =>
        query.where('license_keys.organization_id', '=', terms.organizationId!),
      );
  const [byId, byKey, byCustomer] = await Promise.all([
    terms.id ? base().where('license_keys.id', '=', terms.id).execute() : Promise.resolve([]),
    base()
      .where(sql`license_keys.key collate "C"`, 'like', terms.prefix.toUpperCase())
      .orderBy(sql`license_keys.key collate "C"`)
      .limit(limit)
      .execute(),
    customerIds.length
      ? base()
          .where('license_keys.customer_id', 'in', customerIds)
          .orderBy('license_keys.created_at', 'desc')
          .limit(limit)
          .execute()
      : Promise.resolve([]),
  ]);
  return firstDistinct([...byId, ...byKey, ...byCustomer]);
}

/** The first RESULTS_PER_TYPE rows, each id once, in the order found. */
function firstDistinct<T extends { id: string }>(rows: T[]): T[] {
  const seen = new Set<string>();
  return rows.filter((row) => !seen.has(row.id) && seen.add(row.id)).slice(0, limit);
}
