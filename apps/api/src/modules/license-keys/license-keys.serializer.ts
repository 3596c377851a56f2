import type { z } from 'zod/v4';
import type { Metadata } from '../../platform/http/metadata.js';
import { iso } from '../../platform/http/schemas.js';
import type { CustomerRow } from '../customers/customers.repository.js';
import { serializeCustomer } from '../customers/customers.serializer.js';
import { displayKey } from './license-keys.keys.js';
import type { LicenseKeyActivationRow, LicenseKeyRow } from './license-keys.repository.js';
import type {
  LicenseKeyActivationBase,
  LicenseKeyActivationRead,
  LicenseKeyRead,
  LicenseKeyWithActivations,
  ValidatedLicenseKey,
} from './license-keys.schemas.js';

export type LicenseKeyWire = z.input<typeof LicenseKeyRead>;

export function serializeLicenseKey(row: LicenseKeyRow, customer: CustomerRow): LicenseKeyWire {
  return {
    id: row.id,
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    organization_id: row.organization_id,
    customer_id: row.customer_id,
    customer: serializeCustomer(customer),
    benefit_id: row.benefit_id,
    key: row.key,
    display_key: displayKey(row.key),
    status: row.status,
    limit_activations: row.limit_activations,
    usage: row.usage,
    limit_usage: row.limit_usage,
    validations: row.validations,
    last_validated_at: iso(row.last_validated_at),
    expires_at: iso(row.expires_at),
  };
}

export function serializeActivationBase(row: LicenseKeyActivationRow): z.input<typeof LicenseKeyActivationBase> {
  return {
    id: row.id,
    license_key_id: row.license_key_id,
    label: row.label,
    meta: (row.meta ?? {}) as Metadata,
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
  };
}

export function serializeLicenseKeyWithActivations(
  row: LicenseKeyRow,
  customer: CustomerRow,
  activations: LicenseKeyActivationRow[],
): z.input<typeof LicenseKeyWithActivations> {
  return { ...serializeLicenseKey(row, customer), activations: activations.map(serializeActivationBase) };
}

export function serializeActivation(
  row: LicenseKeyActivationRow,
  key: LicenseKeyRow,
  customer: CustomerRow,
): z.input<typeof LicenseKeyActivationRead> {
  return { ...serializeActivationBase(row), license_key: serializeLicenseKey(key, customer) };
}

export function serializeValidated(
  key: LicenseKeyRow,
  customer: CustomerRow,
  activation: LicenseKeyActivationRow | null,
): z.input<typeof ValidatedLicenseKey> {
  return { ...serializeLicenseKey(key, customer), activation: activation ? serializeActivationBase(activation) : null };
}
