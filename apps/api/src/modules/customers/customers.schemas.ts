import { z } from 'zod/v4';
import { Address, AddressInput } from '../../platform/http/countries.js';
import { MetadataInput, MetadataOutput } from '../../platform/http/metadata.js';
import { metadataQuery, oneOrList, paginationQuery, queryString, sortingQuery } from '../../platform/http/query.js';
import { DateTime, Id, ListResource, Pagination } from '../../platform/http/schemas.js';
import { TaxIdFormatSchema, TaxIdPair } from '../../platform/http/tax-ids.js';

export const Customer = z
  .object({
    id: z.uuid(),
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    metadata: MetadataOutput,
    external_id: z.string().nullable(),
    email: z.string(),
    email_verified: z.boolean(),
    type: z.literal('individual').meta({
      description: "The reference's customer type (2026): Tessera's customers are all individuals.",
    }),
    name: z.string().nullable(),
    billing_name: z.string().nullable().meta({
      description: "The reference's billing name (2026): Tessera keeps the billing name on each order, so null.",
    }),
    billing_address: Address.nullable(),
    tax_id: z.tuple([z.string(), TaxIdFormatSchema]).nullable(),
    organization_id: z.uuid(),
    deleted_at: DateTime().nullable(),
    avatar_url: z.string(),
    credit_balance: z.int().meta({
      description:
        "Credit in cents that pays the customer's next subscription orders before any charge (unused time of " +
        'a downgrade). In the currency of `credit_balances` when it has one; otherwise USD.',
    }),
    credit_balances: z
      .record(z.string(), z.int())
      .meta({ description: 'The credit balance by lower-case ISO 4217 currency, in cents.' }),
  })
  .meta({ id: 'Customer' });

export const ListResourceCustomer = ListResource(Customer, 'ListResourceCustomer');

/**
 * The customer's state. Subscriptions, benefit grants and meters are filled in by their modules; the
 * item shapes are those of the reference so that the document already describes them.
 */
const CustomerStateSubscription = z
  .object({
    id: z.uuid(),
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    custom_field_data: z.record(z.string(), z.union([z.string(), z.int(), z.boolean(), DateTime()]).nullable()),
    metadata: MetadataOutput,
    status: z.literal('active'),
    amount: z.int(),
    currency: z.string(),
    recurring_interval: z.enum(['month', 'year']),
    current_period_start: DateTime(),
    current_period_end: DateTime().nullable(),
    cancel_at_period_end: z.boolean(),
    canceled_at: DateTime().nullable(),
    started_at: DateTime().nullable(),
    ends_at: DateTime().nullable(),
    product_id: z.uuid(),
    discount_id: z.uuid().nullable(),
    meters: z.array(
      z
        .object({
          id: z.uuid(),
          created_at: DateTime(),
          modified_at: DateTime().nullable(),
          consumed_units: z.number(),
          credited_units: z.int(),
          amount: z.int(),
          meter_id: z.uuid(),
        })
        .meta({ id: 'CustomerStateSubscriptionMeter' }),
    ),
  })
  .meta({ id: 'CustomerStateSubscription' });

const CustomerStateBenefitGrant = z
  .object({
    id: z.uuid(),
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    granted_at: DateTime(),
    benefit_id: z.uuid(),
    benefit_type: z.enum(['custom', 'discord', 'github_repository', 'downloadables', 'license_keys', 'meter_credit']),
    properties: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'CustomerStateBenefitGrant' });

const CustomerStateMeter = z
  .object({
    id: z.uuid(),
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    meter_id: z.uuid(),
    consumed_units: z.number(),
    credited_units: z.int(),
    balance: z.number(),
  })
  .meta({ id: 'CustomerStateMeter' });

export const CustomerState = z
  .object({
    ...Customer.shape,
    active_subscriptions: z.array(CustomerStateSubscription),
    granted_benefits: z.array(CustomerStateBenefitGrant),
    active_meters: z.array(CustomerStateMeter),
  })
  .meta({ id: 'CustomerState' });

const email = z.email({ message: 'Input should be a valid email address' }).max(320);
const name = z.string().max(256).nullable().optional();
const externalId = z.string().min(1).max(256);

const updateFields = {
  metadata: MetadataInput.optional(),
  email: email.nullable().optional(),
  name,
  billing_address: AddressInput.nullable().optional(),
  tax_id: TaxIdPair.nullable().optional(),
};

export const CustomerCreate = z
  .object({
    metadata: MetadataInput.optional(),
    external_id: externalId.nullable().optional(),
    email,
    name,
    billing_address: AddressInput.nullable().optional(),
    tax_id: TaxIdPair.nullable().optional(),
    organization_id: Id().nullable().optional(),
  })
  .meta({ id: 'CustomerCreate' });

export const CustomerUpdate = z
  .object({ ...updateFields, external_id: externalId.nullable().optional() })
  .meta({ id: 'CustomerUpdate' });

export const CustomerUpdateExternalID = z.object(updateFields).meta({ id: 'CustomerUpdateExternalID' });

export type CustomerCreateInput = z.output<typeof CustomerCreate>;
export type CustomerUpdateInput = z.output<typeof CustomerUpdate>;

/** `GET /v1/customers/export`: the reference's filter. */
export const CustomerExportQuery = z.object({ organization_id: oneOrList(Id(), 'Filter by organization ID.') });
export type CustomerExportParams = z.output<typeof CustomerExportQuery>;

export const CustomerListQuery = z.object({
  organization_id: oneOrList(Id()),
  email: queryString(),
  query: queryString(),
  ...paginationQuery,
  sorting: sortingQuery<'created_at' | 'email' | 'name'>(['created_at', 'email', 'name'], ['-created_at']),
  metadata: metadataQuery(),
});
export type CustomerListParams = z.output<typeof CustomerListQuery>;

export const ExternalIdParams = z.object({ external_id: z.string().min(1) });

/** Extension: one thing that happened to a customer (GET /v1/customers/{id}/timeline). */
export const CustomerTimelineItem = z
  .object({
    id: z.string(),
    type: z.enum(['order', 'payment', 'refund', 'subscription_change', 'benefit_granted', 'benefit_revoked', 'email']),
    occurred_at: DateTime(),
    resource_id: z.string().describe('The order, payment, refund, subscription, benefit grant or email.'),
    status: z.string().nullable().describe("The resource's status; for a subscription change, its kind."),
    amount: z.int().nullable().describe('Minor units: the order total, the payment, the refund with its tax.'),
    currency: z.string().nullable(),
    description: z
      .string()
      .nullable()
      .describe("An order's billing reason, a decline message, a refund reason, a benefit, an email subject."),
    subscription_id: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable().describe("A subscription change's details."),
  })
  .meta({ id: 'CustomerTimelineItem' });

export const CustomerLifetimeValue = z
  .object({
    currency: z.string(),
    paid_amount: z.int().describe('What its paid orders charged, tax included.'),
    refunded_amount: z.int().describe('What was refunded of them, tax included.'),
    net_amount: z.int().describe('paid_amount − refunded_amount.'),
  })
  .meta({ id: 'CustomerLifetimeValue' });

export const CustomerTimeline = z
  .object({
    items: z.array(CustomerTimelineItem),
    pagination: Pagination,
    lifetime_value: z.array(CustomerLifetimeValue).describe('Per currency, over every order of the customer.'),
  })
  .meta({ id: 'CustomerTimeline' });

export const CustomerTimelineQuery = z.object({ ...paginationQuery });
