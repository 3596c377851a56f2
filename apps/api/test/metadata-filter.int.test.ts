import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metadataMatches } from '../src/platform/db/metadata-filter.js';
import { startTestServer, type TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  const db = server.runtime.database.db;
  await sql`CREATE TABLE metadata_probe (id int PRIMARY KEY, metadata jsonb NOT NULL)`.execute(db);
  await sql`INSERT INTO metadata_probe VALUES
    (1, '{"tier": "gold", "seats": 5, "beta": true}'),
    (2, '{"tier": "silver", "seats": 5}'),
    (3, '{"tier": "bronze", "beta": false}'),
    (4, '{}')`.execute(db);
});
afterAll(() => server?.stop());

async function ids(filter: Record<string, string[]> | undefined): Promise<number[]> {
  const rows = await server.runtime.database.db
    .selectFrom(sql`metadata_probe`.as('m') as never)
    .select(sql<number>`id`.as('id'))
    .where(metadataMatches('metadata', filter) as never)
    .orderBy(sql`id`)
    .execute();
  return rows.map((row) => (row as { id: number }).id);
}

describe('metadataMatches', () => {
  it('matches everything without a filter', async () => {
    expect(await ids(undefined)).toEqual([1, 2, 3, 4]);
    expect(await ids({})).toEqual([1, 2, 3, 4]);
  });

  it('compares the text of the value, so numbers and booleans match their spelling', async () => {
    expect(await ids({ seats: ['5'] })).toEqual([1, 2]);
    expect(await ids({ beta: ['true'] })).toEqual([1]);
    expect(await ids({ beta: ['false'] })).toEqual([3]);
  });

  it('ORs repeated values and ANDs different keys', async () => {
    expect(await ids({ tier: ['gold', 'bronze'] })).toEqual([1, 3]);
    expect(await ids({ tier: ['gold', 'silver'], beta: ['true'] })).toEqual([1]);
    expect(await ids({ tier: ['platinum'] })).toEqual([]);
  });

  it('treats keys as data, not SQL', async () => {
    expect(await ids({ "tier' OR '1'='1": ['gold'] })).toEqual([]);
  });
});
