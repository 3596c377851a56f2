import { Polar } from '@polar-sh/sdk';
import { NotPermitted } from '@polar-sh/sdk/models/errors/notpermitted.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { Unauthorized } from '@polar-sh/sdk/models/errors/unauthorized.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../../src/platform/clock.js';
import { purchaseFactory, typedBenefitFactory, waitForGrant } from '../factories/benefit-grants.js';
import { licenseKeyFactory } from '../factories/license-keys.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { startTestServer, type TestServer } from '../harness.js';

/**
 * License keys (seller and public calls) and benefit grants through the official `@polar-sh/sdk@0.33.2`:
 * every response passes the SDK's own validation or the call throws.
 */
let server: TestServer;
let acme: OrganizationFixture;
let polar: Polar;
let anonymous: Polar;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  acme = await organizationFactory(server, { name: 'Acme' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
  anonymous = new Polar({ serverURL: server.url });
});
afterAll(() => server?.stop());

describe('license keys through @polar-sh/sdk', () => {
  it('licenseKeys.list, get, update, getActivation', async () => {
    const key = await licenseKeyFactory(server, acme.organization.id);
    const page = await polar.licenseKeys.list({ organizationId: acme.organization.id, benefitId: key.benefit_id });
    expect(page.result.items.map((k) => k.id)).toEqual([key.id]);
    expect(page.result.items[0]!.displayKey).toBe(`****-${key.key.slice(-6)}`);

    const activation = await polar.customerPortal.licenseKeys.activate({
      key: key.key,
      organizationId: acme.organization.id,
      label: 'laptop',
      conditions: { major: 1 },
      meta: { os: 'linux' },
    });
    expect(activation.licenseKey.id).toBe(key.id);

    const read = await polar.licenseKeys.get({ id: key.id });
    expect(read.activations.map((a) => a.id)).toEqual([activation.id]);
    const one = await polar.licenseKeys.getActivation({ id: key.id, activationId: activation.id });
    expect(one).toMatchObject({ label: 'laptop', meta: { os: 'linux' } });

    const updated = await polar.licenseKeys.update({
      id: key.id,
      licenseKeyUpdate: { status: 'granted', limitUsage: 10, expiresAt: new Date('2030-01-01T00:00:00Z') },
    });
    expect(updated).toMatchObject({ limitUsage: 10, usage: 0 });
    expect(updated.expiresAt?.toISOString()).toBe('2030-01-01T00:00:00.000Z');
  });

  it('401 Unauthorized and 404 ResourceNotFound are typed', async () => {
    await expect(anonymous.licenseKeys.list({})).rejects.toBeInstanceOf(Unauthorized);
    await expect(polar.licenseKeys.get({ id: crypto.randomUUID() })).rejects.toBeInstanceOf(ResourceNotFound);
  });

  it('customerPortal.licenseKeys.validate, activate, deactivate without credentials', async () => {
    const key = await licenseKeyFactory(server, acme.organization.id, {
      activations: { limit: 1, enable_customer_admin: true },
      limit_usage: 3,
    });
    const base = { key: key.key, organizationId: acme.organization.id };
    const activation = await anonymous.customerPortal.licenseKeys.activate({ ...base, label: 'one' });
    await expect(anonymous.customerPortal.licenseKeys.activate({ ...base, label: 'two' })).rejects.toBeInstanceOf(
      NotPermitted,
    );
    (server.clock as ManualClock).advance(1000);
    const validated = await anonymous.customerPortal.licenseKeys.validate({
      ...base,
      activationId: activation.id,
      incrementUsage: 2,
    });
    expect(validated).toMatchObject({ usage: 2, validations: 1, activation: { id: activation.id } });
    await expect(anonymous.customerPortal.licenseKeys.validate({ ...base, key: 'NOPE' })).rejects.toBeInstanceOf(
      ResourceNotFound,
    );
    await anonymous.customerPortal.licenseKeys.deactivate({ ...base, activationId: activation.id });
    (server.clock as ManualClock).advance(1000);
    await expect(
      anonymous.customerPortal.licenseKeys.deactivate({ ...base, activationId: activation.id }),
    ).rejects.toBeInstanceOf(ResourceNotFound);
  });
});

describe('customer portal license keys through @polar-sh/sdk', () => {
  it('customerPortal.licenseKeys.list and get with a customer session', async () => {
    const key = await licenseKeyFactory(server, acme.organization.id);
    const session = await polar.customerSessions.create({ customerId: key.customer_id });
    const security = { customerSession: session.token };
    const page = await anonymous.customerPortal.licenseKeys.list(security, { organizationId: acme.organization.id });
    expect(page.result.items.map((k) => k.id)).toEqual([key.id]);
    const read = await anonymous.customerPortal.licenseKeys.get(security, { id: key.id });
    expect(read).toMatchObject({ id: key.id, activations: [] });
    await expect(
      anonymous.customerPortal.licenseKeys.list({ customerSession: 'polar_cst_nope' }, {}),
    ).rejects.toThrow();
  });
});

describe('benefit grants through @polar-sh/sdk', () => {
  it('benefits.grants lists the grants of a real purchase', async () => {
    const benefit = await typedBenefitFactory(server, acme.organization.id, 'license_keys');
    const purchase = await purchaseFactory(server, acme, [benefit.id]);
    await waitForGrant(server, purchase.customerId, benefit.id, (g) => g.granted_at !== null);
    const grants = await polar.benefits.grants({ id: benefit.id, isGranted: true });
    expect(grants.result.items).toHaveLength(1);
    expect(grants.result.items[0]).toMatchObject({ isGranted: true, orderId: purchase.orderId });
    const state = await polar.customers.getState({ id: purchase.customerId });
    expect(state.grantedBenefits.map((g) => g.benefitId)).toEqual([benefit.id]);
  });
});
