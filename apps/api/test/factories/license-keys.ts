import type { LicenseKeyChanges, LicenseKeyRow } from '../../src/modules/license-keys/license-keys.repository.js';
import { updateLicenseKey } from '../../src/modules/license-keys/license-keys.repository.js';
import { createKeyForGrant } from '../../src/modules/license-keys/license-keys.service.js';
import type { TestServer } from '../harness.js';
import { inTransaction, typedBenefitFactory } from './benefit-grants.js';
import { customerFactory } from './customers.js';

/**
 * A license key as a grant mints it (a license_keys benefit with `properties`, a customer), with
 * `changes` applied afterwards (status, usage, expiry…).
 */
export async function licenseKeyFactory(
  server: TestServer,
  organizationId: string,
  properties: Record<string, unknown> = {},
  changes: Omit<LicenseKeyChanges, 'modified_at'> = {},
): Promise<LicenseKeyRow> {
  const benefit = await typedBenefitFactory(server, organizationId, 'license_keys', {
    prefix: 'test',
    expires: null,
    activations: { limit: 3, enable_customer_admin: true },
    limit_usage: null,
    ...properties,
  });
  const customer = await customerFactory(server, organizationId);
  return inTransaction(server, async (ctx) => {
    const key = await createKeyForGrant(ctx, benefit, customer.id);
    return Object.keys(changes).length
      ? updateLicenseKey(ctx.db, key.id, { modified_at: ctx.clock.now(), ...changes })
      : key;
  });
}
