import { z } from 'zod/v4';
import {
  metadataQuery,
  oneOrList,
  paginationQuery,
  queryBool,
  queryString,
  sortingQuery,
} from '../../platform/http/query.js';
import { MetadataInput, MetadataOutput } from '../../platform/http/metadata.js';
import { DateTime, Id, ListResource } from '../../platform/http/schemas.js';
import { Customer } from '../customers/customers.schemas.js';
import {
  BENEFIT_TYPES,
  BenefitCustomCreateProperties,
  BenefitCustomProperties,
  BenefitDiscordCreateProperties,
  BenefitDiscordProperties,
  BenefitDownloadablesCreateProperties,
  BenefitDownloadablesProperties,
  BenefitGitHubRepositoryCreateProperties,
  BenefitGitHubRepositoryProperties,
  BenefitLicenseKeysCreateProperties,
  BenefitLicenseKeysProperties,
  BenefitMeterCreditCreateProperties,
  BenefitMeterCreditProperties,
  BenefitTypeEnum,
  GITHUB_PERMISSIONS,
  type BenefitType,
} from './benefits.properties.js';

/** Description bounds of the reference (`BENEFIT_DESCRIPTION_MIN_LENGTH`/`MAX_LENGTH`). */
export const DESCRIPTION_MIN = 3;
export const DESCRIPTION_MAX = 42;

const description = z.string().min(DESCRIPTION_MIN).max(DESCRIPTION_MAX);

const TAG_MESSAGE = `Input tag does not match any of the expected tags: ${BENEFIT_TYPES.map((t) => `'${t}'`).join(', ')}`;

// ---------------------------------------------------------------------------------------------------
// Read
// ---------------------------------------------------------------------------------------------------

function benefitVariant<T extends BenefitType, P extends z.ZodType>(type: T, properties: P, id: string) {
  return z
    .object({
      id: z.uuid(),
      created_at: DateTime(),
      modified_at: DateTime().nullable(),
      type: z.literal(type),
      description: z.string(),
      selectable: z.boolean(),
      deletable: z.boolean(),
      is_deleted: z
        .boolean()
        .meta({ description: 'Whether the benefit is deleted (a grant shows its benefit as it is).' }),
      organization_id: z.uuid(),
      metadata: MetadataOutput,
      visibility: BenefitVisibility,
      properties,
      visibility_configurable: z.boolean().meta({
        description: "The reference's visibility setting (2026): Tessera has none, so false.",
      }),
    })
    .meta({ id });
}

/** The reference's benefit visibility (2026): every Tessera benefit is public. */
export const BenefitVisibility = z.enum(['draft', 'private', 'public']).meta({ id: 'BenefitVisibility' });

export const BenefitCustom = benefitVariant('custom', BenefitCustomProperties, 'BenefitCustom');
export const BenefitDiscord = benefitVariant('discord', BenefitDiscordProperties, 'BenefitDiscord');
export const BenefitGitHubRepository = benefitVariant(
  'github_repository',
  BenefitGitHubRepositoryProperties,
  'BenefitGitHubRepository',
);
export const BenefitDownloadables = benefitVariant(
  'downloadables',
  BenefitDownloadablesProperties,
  'BenefitDownloadables',
);
export const BenefitLicenseKeys = benefitVariant('license_keys', BenefitLicenseKeysProperties, 'BenefitLicenseKeys');
export const BenefitMeterCredit = benefitVariant('meter_credit', BenefitMeterCreditProperties, 'BenefitMeterCredit');

export const Benefit = z
  .discriminatedUnion('type', [
    BenefitCustom,
    BenefitDiscord,
    BenefitGitHubRepository,
    BenefitDownloadables,
    BenefitLicenseKeys,
    BenefitMeterCredit,
  ])
  .meta({ id: 'Benefit' });

export const ListResourceBenefit = ListResource(Benefit, 'ListResourceBenefit');

// ---------------------------------------------------------------------------------------------------
// Create
// ---------------------------------------------------------------------------------------------------

function createVariant<T extends BenefitType, P extends z.ZodType>(type: T, properties: P, id: string) {
  return z
    .object({
      type: z.literal(type),
      description,
      metadata: MetadataInput.optional(),
      organization_id: Id().nullable().optional(),
      properties,
    })
    .meta({ id });
}

export const BenefitCreate = z
  .discriminatedUnion(
    'type',
    [
      createVariant('custom', BenefitCustomCreateProperties, 'BenefitCustomCreate'),
      createVariant('discord', BenefitDiscordCreateProperties, 'BenefitDiscordCreate'),
      createVariant('github_repository', BenefitGitHubRepositoryCreateProperties, 'BenefitGitHubRepositoryCreate'),
      createVariant('downloadables', BenefitDownloadablesCreateProperties, 'BenefitDownloadablesCreate'),
      createVariant('license_keys', BenefitLicenseKeysCreateProperties, 'BenefitLicenseKeysCreate'),
      createVariant('meter_credit', BenefitMeterCreditCreateProperties, 'BenefitMeterCreditCreate'),
    ],
    { error: TAG_MESSAGE },
  )
  .meta({ id: 'BenefitCreate' });

export type BenefitCreateInput = z.output<typeof BenefitCreate>;

// ---------------------------------------------------------------------------------------------------
// Update: `type` is required and selects the properties variant; it must equal the stored type.
// ---------------------------------------------------------------------------------------------------

function updateVariant<T extends BenefitType, P extends z.ZodType>(type: T, properties: P, id: string) {
  return z
    .object({
      type: z.literal(type),
      description: description.nullable().optional(),
      metadata: MetadataInput.optional(),
      properties: properties.nullable().optional(),
    })
    .meta({ id });
}

export const BenefitUpdate = z
  .discriminatedUnion(
    'type',
    [
      updateVariant('custom', BenefitCustomCreateProperties, 'BenefitCustomUpdate'),
      updateVariant('discord', BenefitDiscordCreateProperties, 'BenefitDiscordUpdate'),
      updateVariant('github_repository', BenefitGitHubRepositoryCreateProperties, 'BenefitGitHubRepositoryUpdate'),
      updateVariant('downloadables', BenefitDownloadablesCreateProperties, 'BenefitDownloadablesUpdate'),
      updateVariant('license_keys', BenefitLicenseKeysCreateProperties, 'BenefitLicenseKeysUpdate'),
      updateVariant('meter_credit', BenefitMeterCreditCreateProperties, 'BenefitMeterCreditUpdate'),
    ],
    { error: TAG_MESSAGE },
  )
  .meta({ id: 'BenefitUpdate' });

export type BenefitUpdateInput = z.output<typeof BenefitUpdate>;

// ---------------------------------------------------------------------------------------------------
// Grants
// ---------------------------------------------------------------------------------------------------

/** What a grant recorded when it was granted, per type (every key optional: pending grants have none). */
export const BenefitGrantDiscordProperties = z
  .object({ account_id: z.string().optional(), guild_id: z.string().optional(), role_id: z.string().optional() })
  .meta({ id: 'BenefitGrantDiscordProperties' });
export const BenefitGrantGitHubRepositoryProperties = z
  .object({
    account_id: z.string().optional(),
    repository_owner: z.string().optional(),
    repository_name: z.string().optional(),
    permission: z.enum(GITHUB_PERMISSIONS).optional(),
  })
  .meta({ id: 'BenefitGrantGitHubRepositoryProperties' });
export const BenefitGrantDownloadablesProperties = z
  .object({ files: z.array(z.string()).optional() })
  .meta({ id: 'BenefitGrantDownloadablesProperties' });
export const BenefitGrantLicenseKeysProperties = z
  .object({ license_key_id: z.string().optional(), display_key: z.string().optional() })
  .meta({ id: 'BenefitGrantLicenseKeysProperties' });
export const BenefitGrantCustomProperties = z.object({}).meta({ id: 'BenefitGrantCustomProperties' });

export const BenefitGrantProperties = z.union([
  BenefitGrantDiscordProperties,
  BenefitGrantGitHubRepositoryProperties,
  BenefitGrantDownloadablesProperties,
  BenefitGrantLicenseKeysProperties,
  BenefitGrantCustomProperties,
]);

export const BenefitGrantError = z
  .object({ message: z.string(), type: z.string(), timestamp: z.string() })
  .meta({ id: 'BenefitGrantError' });

export const BenefitGrant = z
  .object({
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    id: z.uuid(),
    granted_at: DateTime().nullable(),
    is_granted: z.boolean(),
    revoked_at: DateTime().nullable(),
    is_revoked: z.boolean(),
    subscription_id: z.uuid().nullable(),
    order_id: z.uuid().nullable(),
    customer_id: z.uuid(),
    benefit_id: z.uuid(),
    error: BenefitGrantError.nullable(),
    customer: Customer,
    benefit: Benefit,
    properties: BenefitGrantProperties,
  })
  .meta({ id: 'BenefitGrant' });

export const ListResourceBenefitGrant = ListResource(BenefitGrant, 'ListResourceBenefitGrant');

// ---------------------------------------------------------------------------------------------------
// List
// ---------------------------------------------------------------------------------------------------

export const BenefitListQuery = z.object({
  organization_id: oneOrList(Id()),
  type: oneOrList(BenefitTypeEnum),
  query: queryString(),
  ...paginationQuery,
  sorting: sortingQuery<'created_at' | 'description'>(['created_at', 'description'], ['-created_at']),
  metadata: metadataQuery(),
});
export type BenefitListParams = z.output<typeof BenefitListQuery>;

export const BenefitGrantListQuery = z.object({
  is_granted: queryBool(),
  customer_id: oneOrList(Id()),
  ...paginationQuery,
});
export type BenefitGrantListParams = z.output<typeof BenefitGrantListQuery>;
