import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationFactory } from './factories/organizations.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';
import {
  COUNTED_SERVER,
  installStatementCounter,
  tokenLastUseWritten,
  type StatementCounter,
} from './support/statement-counter.js';

// A file of its own: the counter counts every statement of the process, so no other server (workers,
// job polling) may run beside the one counted.
describe('an organization token reading its organization', () => {
  let quiet: TestServer;
  let counter: StatementCounter;
  beforeAll(async () => {
    quiet = await startTestServer(COUNTED_SERVER);
    counter = installStatementCounter();
  });
  afterAll(async () => {
    counter?.uninstall();
    await quiet?.stop();
  });

  it('reads it with the token in one statement, as it is at that moment', async () => {
    const own = await organizationFactory(quiet, { name: 'Before' });
    const read = (id: string) =>
      quiet.inject({ method: 'GET', url: `/v1/organizations/${id}`, headers: bearer(own.token) });
    expect((await read(own.organization.id)).statusCode).toBe(200);
    // The token's last use is written once, off the request's path: not in the count.
    await tokenLastUseWritten(quiet, own.organization.id);
    const { result, statements } = await counter.count(() => read(own.organization.id));
    expect(result.statusCode).toBe(200);
    // Outside production the organization's test clock is read too (platform/test-clock.ts).
    const sent = statements.filter((text) => !text.includes('"test_clocks"'));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('from "organization_access_tokens" as "t" inner join "organizations" as "o"');

    const renamed = await quiet.inject({
      method: 'PATCH',
      url: `/v1/organizations/${own.organization.id}`,
      headers: bearer(own.token),
      payload: { name: 'After' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(json(await read(own.organization.id)).name).toBe('After');
    // Another organization's id is read as before, and not found.
    const stranger = await organizationFactory(quiet, { name: 'Stranger' });
    expect((await read(stranger.organization.id)).statusCode).toBe(404);
  });
});
