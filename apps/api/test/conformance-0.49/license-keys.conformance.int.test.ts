import { Polar } from '@polar-sh/sdk-0.49';
import { NotPermitted } from '@polar-sh/sdk-0.49/models/errors/notpermitted.js';
import { ResourceNotFound } from '@polar-sh/sdk-0.49/models/errors/resourcenotfound.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/platform/clock.js';
import { licenseKeyFactory } from '../factories/license-keys.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { startTestServer, type TestServer } from '../harness.js';
import { withZodIssues } from './issues.js';

/**
 * The organization's license key calls through `@polar-sh/sdk@0.49`: every response passes the SDK's
 * own validation (ResponseValidationError otherwise), each call with one assertion on what it did.
 */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;
let polar: Polar;

beforeAll(async () => {
  server = await startTestServer({ listen: true, clock: systemClock });
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
});
afterAll(() => server?.stop());

describe('license keys through @polar-sh/sdk@0.49', () => {
  it('licenseKeys.validate counts the validation and the usage', async () => {
    const key = await licenseKeyFactory(server, acme.organization.id, { limit_usage: 10 });
    const validated = await withZodIssues(() =>
      polar.licenseKeys.validate({
        key: key.key,
        organizationId: acme.organization.id,
        benefitId: key.benefit_id,
        customerId: key.customer_id,
        incrementUsage: 3,
      }),
    );
    expect(validated).toMatchObject({ id: key.id, usage: 3, validations: 1, activation: null });
    expect(validated.customer.id).toBe(key.customer_id);
  });

  it('licenseKeys.activate creates an activation; past the limit it is NotPermitted', async () => {
    const key = await licenseKeyFactory(server, acme.organization.id, {
      activations: { limit: 1, enable_customer_admin: false },
    });
    const activation = await withZodIssues(() =>
      polar.licenseKeys.activate({
        key: key.key,
        organizationId: acme.organization.id,
        label: 'laptop',
        conditions: { major: 1 },
        meta: { os: 'linux' },
      }),
    );
    expect(activation).toMatchObject({ label: 'laptop', meta: { os: 'linux' }, licenseKeyId: key.id });
    expect(activation.licenseKey.id).toBe(key.id);
    await expect(
      polar.licenseKeys.activate({ key: key.key, organizationId: acme.organization.id, label: 'desk' }),
    ).rejects.toBeInstanceOf(NotPermitted);
  });

  it('licenseKeys.deactivate frees the activation: a second time is ResourceNotFound', async () => {
    const key = await licenseKeyFactory(server, acme.organization.id);
    const activation = await polar.licenseKeys.activate({
      key: key.key,
      organizationId: acme.organization.id,
      label: 'laptop',
    });
    const request = { key: key.key, organizationId: acme.organization.id, activationId: activation.id };
    await expect(withZodIssues(() => polar.licenseKeys.deactivate(request))).resolves.toBeUndefined();
    await expect(polar.licenseKeys.deactivate(request)).rejects.toBeInstanceOf(ResourceNotFound);
  });

  it("another organization's key is ResourceNotFound", async () => {
    const foreign = await licenseKeyFactory(server, other.organization.id);
    await expect(
      polar.licenseKeys.validate({ key: foreign.key, organizationId: other.organization.id }),
    ).rejects.toBeInstanceOf(ResourceNotFound);
  });
});
