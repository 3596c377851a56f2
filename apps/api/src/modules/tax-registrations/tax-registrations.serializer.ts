import type { z } from 'zod/v4';
import { iso } from '../../platform/http/schemas.js';
import type { TaxRegistrationRow } from './tax-registrations.repository.js';
import type { TaxRegistration } from './tax-registrations.schemas.js';

export function serializeTaxRegistration(row: TaxRegistrationRow): z.input<typeof TaxRegistration> {
  return {
    id: row.id,
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    organization_id: row.organization_id,
    country: row.country,
    state: row.state === '' ? null : row.state,
    rate_basis_points: row.rate_basis_points,
    label: row.label,
  };
}
