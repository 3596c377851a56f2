import { z } from 'zod/v4';
import { MetadataOutput } from '../../../platform/http/metadata.js';
import { oneOrList, paginationQuery, sortingQuery } from '../../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../../platform/http/schemas.js';
import {
  BenefitCustomProperties,
  BenefitLicenseKeysProperties,
  BenefitMeterCreditProperties,
  BenefitTypeEnum,
  type BenefitType,
} from '../../benefits/benefits.properties.js';
import {
  BenefitGrantCustomProperties,
  BenefitGrantError,
  BenefitGrantDiscordProperties,
  BenefitGrantDownloadablesProperties,
  BenefitGrantGitHubRepositoryProperties,
  BenefitGrantLicenseKeysProperties,
} from '../../benefits/benefits.schemas.js';
import { Organization } from '../../organizations/organizations.schemas.js';
import { CustomerPortalCustomer } from '../customer-portal.schemas.js';

// ---------------------------------------------------------------------------------------------------
// The benefit as its subscriber sees it: with its organization, and only the properties meant for the
// customer (a custom benefit's note, the files still offered; never a Discord guild token).
// ---------------------------------------------------------------------------------------------------

export const BenefitDiscordSubscriberProperties = z
  .object({ guild_id: z.string() })
  .meta({ id: 'BenefitDiscordSubscriberProperties' });
export const BenefitGitHubRepositorySubscriberProperties = z
  .object({ repository_owner: z.string(), repository_name: z.string() })
  .meta({ id: 'BenefitGitHubRepositorySubscriberProperties' });
export const BenefitDownloadablesSubscriberProperties = z
  .object({ active_files: z.array(z.string()) })
  .meta({ id: 'BenefitDownloadablesSubscriberProperties' });

function subscriberBenefit<T extends BenefitType, P extends z.ZodType>(type: T, properties: P, id: string) {
  return z
    .object({
      id: z.uuid(),
      created_at: DateTime(),
      modified_at: DateTime().nullable(),
      type: z.literal(type),
      description: z.string(),
      selectable: z.boolean(),
      deletable: z.boolean(),
      organization_id: z.uuid(),
      metadata: MetadataOutput,
      organization: Organization,
      properties,
    })
    .meta({ id });
}

// ---------------------------------------------------------------------------------------------------
// Grants, one variant per benefit type (told apart by `benefit.type`)
// ---------------------------------------------------------------------------------------------------

/** A meter credit grant records what it credited last (the portal shows such grants once credited). */
export const BenefitGrantMeterCreditProperties = z
  .object({ last_credited_meter_id: z.string(), last_credited_units: z.int(), last_credited_at: z.string() })
  .meta({ id: 'BenefitGrantMeterCreditProperties' });

function grantVariant<B extends z.ZodType, P extends z.ZodType>(benefit: B, properties: P, id: string) {
  return z
    .object({
      created_at: DateTime(),
      modified_at: DateTime().nullable(),
      id: z.uuid(),
      granted_at: DateTime().nullable(),
      revoked_at: DateTime().nullable(),
      customer_id: z.uuid(),
      benefit_id: z.uuid(),
      subscription_id: z.uuid().nullable(),
      order_id: z.uuid().nullable(),
      is_granted: z.boolean(),
      is_revoked: z.boolean(),
      customer: CustomerPortalCustomer,
      benefit,
      properties,
      error: BenefitGrantError.nullable().meta({
        description:
          'Extension: why the grant waits (an account to connect, a Discord or GitHub failure being retried).',
      }),
    })
    .meta({ id });
}

export const CustomerBenefitGrant = z
  .union([
    grantVariant(
      subscriberBenefit('discord', BenefitDiscordSubscriberProperties, 'BenefitDiscordSubscriber'),
      BenefitGrantDiscordProperties,
      'CustomerBenefitGrantDiscord',
    ),
    grantVariant(
      subscriberBenefit(
        'github_repository',
        BenefitGitHubRepositorySubscriberProperties,
        'BenefitGitHubRepositorySubscriber',
      ),
      BenefitGrantGitHubRepositoryProperties,
      'CustomerBenefitGrantGitHubRepository',
    ),
    grantVariant(
      subscriberBenefit('downloadables', BenefitDownloadablesSubscriberProperties, 'BenefitDownloadablesSubscriber'),
      BenefitGrantDownloadablesProperties,
      'CustomerBenefitGrantDownloadables',
    ),
    grantVariant(
      subscriberBenefit('license_keys', BenefitLicenseKeysProperties, 'BenefitLicenseKeysSubscriber'),
      BenefitGrantLicenseKeysProperties,
      'CustomerBenefitGrantLicenseKeys',
    ),
    grantVariant(
      subscriberBenefit('custom', BenefitCustomProperties, 'BenefitCustomSubscriber'),
      BenefitGrantCustomProperties,
      'CustomerBenefitGrantCustom',
    ),
    grantVariant(
      subscriberBenefit('meter_credit', BenefitMeterCreditProperties, 'BenefitMeterCreditSubscriber'),
      BenefitGrantMeterCreditProperties,
      'CustomerBenefitGrantMeterCredit',
    ),
  ])
  .meta({ id: 'CustomerBenefitGrant' });

export const ListResourceCustomerBenefitGrant = ListResource(CustomerBenefitGrant, 'ListResourceCustomerBenefitGrant');

export const CUSTOMER_BENEFIT_GRANT_SORT_KEYS = ['granted_at', 'type', 'organization'] as const;

export const CustomerBenefitGrantListQuery = z.object({
  type: oneOrList(BenefitTypeEnum),
  benefit_id: oneOrList(Id()),
  organization_id: oneOrList(Id()),
  /** Grants of the purchase made through these checkouts (its order or its subscription). */
  checkout_id: oneOrList(Id()),
  order_id: oneOrList(Id()),
  subscription_id: oneOrList(Id()),
  ...paginationQuery,
  sorting: sortingQuery(CUSTOMER_BENEFIT_GRANT_SORT_KEYS, ['-granted_at']),
});
export type CustomerBenefitGrantListParams = z.output<typeof CustomerBenefitGrantListQuery>;

// ---------------------------------------------------------------------------------------------------
// Update: the account a Discord or GitHub grant is delivered to (the other types take no properties)
// ---------------------------------------------------------------------------------------------------

const AccountProperties = (id: string) => z.strictObject({ account_id: z.string().min(1).max(64) }).meta({ id });

function updateVariant<T extends BenefitType, P extends z.ZodType>(type: T, properties: P, id: string) {
  return z.strictObject({ benefit_type: z.literal(type), properties }).meta({ id });
}

const NoProperties = z.record(z.string(), z.unknown()).optional();

export const CustomerBenefitGrantUpdate = z
  .discriminatedUnion('benefit_type', [
    updateVariant(
      'discord',
      AccountProperties('CustomerBenefitGrantDiscordPropertiesUpdate'),
      'CustomerBenefitGrantDiscordUpdate',
    ),
    updateVariant(
      'github_repository',
      AccountProperties('CustomerBenefitGrantGitHubRepositoryPropertiesUpdate'),
      'CustomerBenefitGrantGitHubRepositoryUpdate',
    ),
    updateVariant('custom', NoProperties, 'CustomerBenefitGrantCustomUpdate'),
    updateVariant('downloadables', NoProperties, 'CustomerBenefitGrantDownloadablesUpdate'),
    updateVariant('license_keys', NoProperties, 'CustomerBenefitGrantLicenseKeysUpdate'),
    updateVariant('meter_credit', NoProperties, 'CustomerBenefitGrantMeterCreditUpdate'),
  ])
  .meta({ id: 'CustomerBenefitGrantUpdate' });
export type CustomerBenefitGrantUpdateInput = z.output<typeof CustomerBenefitGrantUpdate>;
