import { randomBytes, randomUUID } from 'node:crypto';
import {
  insertBenefit,
  type BenefitGrantRow,
  type BenefitRow,
  type MeterRow,
} from '../../src/modules/benefits/benefits.repository.js';
import { signGuildToken } from '../../src/modules/benefits/benefits.properties.js';
import { insertCustomer } from '../../src/modules/customers/customers.repository.js';
import type { TestServer } from '../harness.js';

/** Valid create properties for every benefit type (meter credit needs a meter id, discord a fresh token). */
export function propertiesFor(server: TestServer, type: string, meterId?: string): Record<string, unknown> {
  switch (type) {
    case 'custom':
      return { note: 'Thanks for buying' };
    case 'discord':
      return { guild_token: guildToken(server, '1234567890'), role_id: '987654321' };
    case 'github_repository':
      return { repository_owner: 'acme', repository_name: 'private-repo', permission: 'pull' };
    case 'downloadables':
      return { files: [randomUUID()] };
    case 'license_keys':
      return {
        prefix: 'ACME',
        expires: { ttl: 1, timeframe: 'year' },
        activations: { limit: 5, enable_customer_admin: true },
        limit_usage: 100,
      };
    case 'meter_credit':
      return { units: 100, rollover: false, meter_id: meterId };
    default:
      throw new Error(`unknown type ${type}`);
  }
}

/** A guild token as the Discord connect flow would hand it out (signed with the server secret). */
export function guildToken(server: TestServer, guildId: string, at: Date = server.clock.now()): string {
  return signGuildToken(server.config.secret, guildId, at);
}

/** Inserts a benefit row directly (any type, and the system flags the API cannot set). */
export async function benefitFactory(
  server: TestServer,
  organizationId: string,
  overrides: Partial<Omit<BenefitRow, 'id' | 'organization_id'>> = {},
): Promise<BenefitRow> {
  return insertBenefit(server.runtime.database.db, {
    id: randomUUID(),
    created_at: server.clock.now(),
    modified_at: null,
    deleted_at: null,
    organization_id: organizationId,
    type: 'custom',
    description: `Benefit ${randomBytes(3).toString('hex')}`,
    selectable: true,
    deletable: true,
    is_tax_applicable: true,
    properties: { note: null },
    metadata: {},
    ...overrides,
  });
}

export async function meterFactory(
  server: TestServer,
  organizationId: string,
  overrides: { archived_at?: Date | null; name?: string; filter?: unknown; aggregation?: unknown } = {},
): Promise<MeterRow> {
  return server.runtime.database.db
    .insertInto('meters')
    .values({
      id: randomUUID(),
      created_at: server.clock.now(),
      modified_at: null,
      organization_id: organizationId,
      name: overrides.name ?? 'API calls',
      filter: JSON.stringify(overrides.filter ?? { conjunction: 'and', clauses: [] }),
      aggregation: JSON.stringify(overrides.aggregation ?? { func: 'count' }),
      metadata: '{}',
      archived_at: overrides.archived_at ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A customer and a grant of `benefitId` to them (grants are written by the grants module later). */
export async function grantFactory(
  server: TestServer,
  organizationId: string,
  benefitId: string,
  overrides: { granted?: boolean; revoked?: boolean; customerId?: string; createdAt?: Date } = {},
): Promise<BenefitGrantRow> {
  const db = server.runtime.database.db;
  const now = overrides.createdAt ?? server.clock.now();
  const customerId =
    overrides.customerId ??
    (
      await insertCustomer(db, {
        id: randomUUID(),
        created_at: now,
        organization_id: organizationId,
        email: `customer-${randomBytes(4).toString('hex')}@example.com`,
        name: 'Customer',
        external_id: null,
        billing_address: null,
        tax_id: null,
        metadata: {},
      })
    ).id;
  return db
    .insertInto('benefit_grants')
    .values({
      id: randomUUID(),
      created_at: now,
      modified_at: null,
      deleted_at: null,
      granted_at: overrides.granted === false || overrides.revoked ? null : now,
      revoked_at: overrides.revoked ? now : null,
      customer_id: customerId,
      benefit_id: benefitId,
      subscription_id: null,
      order_id: randomUUID(),
      properties: JSON.stringify({}),
      error: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
