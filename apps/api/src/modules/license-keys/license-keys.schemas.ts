import { z } from 'zod/v4';
import { MetadataInput, MetadataOutput } from '../../platform/http/metadata.js';
import { oneOrList, paginationQuery, queryUuid } from '../../platform/http/query.js';
import { DateTime, Id, INT32_MAX, int32, ListResource } from '../../platform/http/schemas.js';
import { Customer } from '../customers/customers.schemas.js';

export const LICENSE_KEY_STATUSES = ['granted', 'revoked', 'disabled'] as const;
export const LicenseKeyStatus = z.enum(LICENSE_KEY_STATUSES).meta({ id: 'LicenseKeyStatus' });

/** The reference's seller PATCH bound on `limit_activations`. */
export const MAX_PATCH_ACTIVATIONS = 1000;
/** The largest value of the `integer` columns behind `usage`, `limit_usage` and `validations`. */
export const MAX_COUNTER = INT32_MAX;
/** A counter as the columns hold it: a whole number from 0 to MAX_COUNTER. */
const Counter = () => int32().min(0);

const licenseKeyFields = {
  id: z.uuid(),
  created_at: DateTime(),
  modified_at: DateTime().nullable(),
  organization_id: z.uuid(),
  customer_id: z.uuid(),
  customer: Customer,
  benefit_id: z.uuid(),
  key: z.string(),
  display_key: z.string(),
  status: LicenseKeyStatus,
  limit_activations: z.int().nullable(),
  usage: z.int(),
  limit_usage: z.int().nullable(),
  validations: z.int(),
  last_validated_at: DateTime().nullable(),
  expires_at: DateTime().nullable(),
};

export const LicenseKeyRead = z.object(licenseKeyFields).meta({ id: 'LicenseKeyRead' });
export const ListResourceLicenseKeyRead = ListResource(LicenseKeyRead, 'ListResourceLicenseKeyRead');

export const LicenseKeyActivationBase = z
  .object({
    id: z.uuid(),
    license_key_id: z.uuid(),
    label: z.string(),
    meta: MetadataOutput,
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
  })
  .meta({ id: 'LicenseKeyActivationBase' });

export const LicenseKeyWithActivations = z
  .object({ ...licenseKeyFields, activations: z.array(LicenseKeyActivationBase) })
  .meta({ id: 'LicenseKeyWithActivations' });

export const LicenseKeyActivationRead = z
  .object({ ...LicenseKeyActivationBase.shape, license_key: LicenseKeyRead })
  .meta({ id: 'LicenseKeyActivationRead' });

export const ValidatedLicenseKey = z
  .object({ ...licenseKeyFields, activation: LicenseKeyActivationBase.nullable() })
  .meta({ id: 'ValidatedLicenseKey' });

export const LicenseKeyListQuery = z.object({
  organization_id: oneOrList(Id()),
  benefit_id: oneOrList(Id()),
  ...paginationQuery,
});
export type LicenseKeyListParams = z.output<typeof LicenseKeyListQuery>;

/** The portal list: `benefit_id` is a single value there. */
export const PortalLicenseKeyListQuery = z.object({
  organization_id: oneOrList(Id()),
  benefit_id: queryUuid(),
  ...paginationQuery,
});
export type PortalLicenseKeyListParams = z.output<typeof PortalLicenseKeyListQuery>;

export const LicenseKeyUpdate = z
  .object({
    status: LicenseKeyStatus.nullable().optional(),
    usage: Counter().optional(),
    limit_activations: z.int().min(1).max(MAX_PATCH_ACTIVATIONS).nullable().optional(),
    limit_usage: Counter().min(1).nullable().optional(),
    expires_at: DateTime().nullable().optional(),
  })
  .meta({ id: 'LicenseKeyUpdate' });
export type LicenseKeyUpdateInput = z.output<typeof LicenseKeyUpdate>;

export const ActivationParams = z.object({ id: Id(), activation_id: Id() });

const key = z.string();

export const LicenseKeyValidate = z
  .object({
    key,
    organization_id: Id(),
    activation_id: Id().nullable().optional(),
    benefit_id: Id().nullable().optional(),
    customer_id: Id().nullable().optional(),
    // ≥ 0 as the reference today: a negative increment would let any key holder reset its usage.
    increment_usage: Counter().nullable().optional(),
    conditions: MetadataInput.default({}),
  })
  .meta({ id: 'LicenseKeyValidate' });
export type LicenseKeyValidateInput = z.output<typeof LicenseKeyValidate>;

export const LicenseKeyActivate = z
  .object({
    key,
    organization_id: Id(),
    label: z.string(),
    conditions: MetadataInput.default({}),
    meta: MetadataInput.default({}),
  })
  .meta({ id: 'LicenseKeyActivate' });
export type LicenseKeyActivateInput = z.output<typeof LicenseKeyActivate>;

export const LicenseKeyDeactivate = z
  .object({ key, organization_id: Id(), activation_id: Id() })
  .meta({ id: 'LicenseKeyDeactivate' });
export type LicenseKeyDeactivateInput = z.output<typeof LicenseKeyDeactivate>;
