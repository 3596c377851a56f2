import { randomBytes } from 'node:crypto';
import { createCustomer } from '../../src/modules/customers/customers.service.js';
import type { CustomerRow } from '../../src/modules/customers/customers.repository.js';
import type { CustomerCreateInput } from '../../src/modules/customers/customers.schemas.js';
import type { TestServer } from '../harness.js';

export function uniqueEmail(prefix = 'customer'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
}

/**
 * A customer of the organization, created through the service as an organization token would (so the
 * events of a creation are written too).
 */
export async function customerFactory(
  server: TestServer,
  organizationId: string,
  overrides: Partial<Omit<CustomerCreateInput, 'organization_id'>> = {},
): Promise<CustomerRow> {
  const subject = {
    kind: 'organization' as const,
    organizationId,
    tokenId: 'factory',
    scopes: new Set(['customers:write']),
  };
  return server.runtime.database.db.transaction().execute((db) =>
    createCustomer(server.runtime.context(db, subject), {
      email: uniqueEmail(),
      ...overrides,
      organization_id: null,
    }),
  );
}
