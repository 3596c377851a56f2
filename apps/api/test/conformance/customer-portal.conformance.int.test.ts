import { Polar } from '@polar-sh/sdk';
import { AlreadyCanceledSubscription } from '@polar-sh/sdk/models/errors/alreadycanceledsubscription.js';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { InvoiceAlreadyExists } from '@polar-sh/sdk/models/errors/invoicealreadyexists.js';
import { MissingInvoiceBillingDetails } from '@polar-sh/sdk/models/errors/missinginvoicebillingdetails.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { SDKError } from '@polar-sh/sdk/models/errors/sdkerror.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchaseFactory, typedBenefitFactory, waitForGrant, type Purchase } from '../factories/benefit-grants.js';
import { uniqueEmail } from '../factories/customers.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { productFactory } from '../factories/products.js';
import { startTestServer, type TestServer } from '../harness.js';

/**
 * The customer portal through the official `@polar-sh/sdk@0.33.2` with a customer session: every
 * response passes the SDK's own validation or the call throws. Fixtures are real purchases.
 */
let server: TestServer;
let acme: OrganizationFixture;
let polar: Polar;
let oneTime: Purchase;
let recurring: Purchase;
let stranger: Purchase;
let licenseBenefitId: string;
let customBenefitId: string;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  acme = await organizationFactory(server, { name: 'Acme' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
  licenseBenefitId = (await typedBenefitFactory(server, acme.organization.id, 'license_keys')).id;
  customBenefitId = (await typedBenefitFactory(server, acme.organization.id, 'custom')).id;
  const email = uniqueEmail('buyer');
  oneTime = await purchaseFactory(server, acme, [licenseBenefitId], { email });
  recurring = await purchaseFactory(server, acme, [customBenefitId], { recurring: true, email });
  stranger = await purchaseFactory(server, acme, [customBenefitId], { recurring: true });
  await waitForGrant(server, oneTime.customerId, licenseBenefitId, (g) => g.granted_at !== null);
  await waitForGrant(server, oneTime.customerId, customBenefitId, (g) => g.granted_at !== null);
  await waitForGrant(server, stranger.customerId, customBenefitId, (g) => g.granted_at !== null);
});
afterAll(() => server?.stop());

/** A customer session opened by the seller, as the SDK's per-call security. */
async function securityFor(customerId: string): Promise<{ customerSession: string }> {
  const session = await polar.customerSessions.create({ customerId });
  return { customerSession: session.token };
}

describe('customerPortal.customers through @polar-sh/sdk', () => {
  it('get and update', async () => {
    const security = await securityFor(oneTime.customerId);
    const me = await polar.customerPortal.customers.get(security);
    expect(me).toMatchObject({ id: oneTime.customerId, oauthAccounts: {}, billingAddress: { country: 'FR' } });

    const updated = await polar.customerPortal.customers.update(security, {
      name: 'Ada Lovelace',
      billingAddress: { country: 'FR', line1: '5 avenue Anatole France', city: 'Paris', postalCode: '75007' },
      taxId: 'FR40303265045',
    });
    expect(updated).toMatchObject({ name: 'Ada Lovelace', taxId: ['FR40303265045', 'eu_vat'] });
    await expect(polar.customerPortal.customers.update(security, { taxId: 'nope' })).rejects.toBeInstanceOf(
      HTTPValidationError,
    );
  });
});

describe('customerPortal.orders through @polar-sh/sdk', () => {
  it('list with the page iterator and filters, and get', async () => {
    const security = await securityFor(oneTime.customerId);
    const ids: string[] = [];
    for await (const page of await polar.customerPortal.orders.list(security, { limit: 1, sorting: ['created_at'] })) {
      ids.push(...page.result.items.map((order) => order.id));
    }
    expect(ids.sort()).toEqual([oneTime.orderId, recurring.orderId].sort());
    const recurringOnly = await polar.customerPortal.orders.list(security, {
      productBillingType: 'recurring',
      subscriptionId: recurring.subscriptionId!,
    });
    expect(recurringOnly.result.items.map((order) => order.id)).toEqual([recurring.orderId]);

    const order = await polar.customerPortal.orders.get(security, { id: recurring.orderId });
    expect(order).toMatchObject({
      id: recurring.orderId,
      paid: true,
      product: { id: recurring.productId, organization: { id: acme.organization.id } },
      subscription: { id: recurring.subscriptionId },
    });
    await expect(polar.customerPortal.orders.get(security, { id: stranger.orderId })).rejects.toBeInstanceOf(
      ResourceNotFound,
    );
  });
});

describe('customerPortal.orders billing details and invoices through @polar-sh/sdk', () => {
  it('update, generateInvoice, invoice: the PDF behind the link, then the typed errors of the reference', async () => {
    const security = await securityFor(oneTime.customerId);
    const id = oneTime.orderId;
    const updated = await polar.customerPortal.orders.update(security, {
      id,
      customerOrderUpdate: {
        billingName: 'Ada Lovelace',
        billingAddress: { line1: '5 avenue Anatole France', city: 'Paris', postalCode: '75007', country: 'FR' },
      },
    });
    expect(updated).toMatchObject({ id, billingName: 'Ada Lovelace', billingAddress: { city: 'Paris', line2: null } });
    await expect(
      polar.customerPortal.orders.update(security, {
        id,
        customerOrderUpdate: { billingName: 'x', billingAddress: { country: 'XX' } },
      }),
    ).rejects.toBeInstanceOf(HTTPValidationError);

    // The reference answers `InvoiceDoesNotExist` (404), which this SDK version does not declare.
    const before = (await polar.customerPortal.orders.invoice(security, { id }).catch((e: unknown) => e)) as {
      statusCode?: number;
    };
    expect(before.statusCode).toBe(404);
    await expect(polar.customerPortal.orders.generateInvoice(security, { id })).resolves.toEqual({});
    const deadline = Date.now() + 20_000;
    while (!(await polar.customerPortal.orders.get(security, { id })).isInvoiceGenerated) {
      if (Date.now() > deadline) throw new Error('the invoice was not rendered');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const invoice = await polar.customerPortal.orders.invoice(security, { id });
    const file = await fetch(new URL(new URL(invoice.url).pathname + new URL(invoice.url).search, server.url));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    await expect(polar.customerPortal.orders.generateInvoice(security, { id })).rejects.toBeInstanceOf(
      InvoiceAlreadyExists,
    );

    await polar.customerPortal.orders.update(security, {
      id: recurring.orderId,
      customerOrderUpdate: { billingName: 'Ada Lovelace', billingAddress: null },
    });
    await expect(
      polar.customerPortal.orders.generateInvoice(security, { id: recurring.orderId }),
    ).rejects.toBeInstanceOf(MissingInvoiceBillingDetails);
  });
});

describe('customerPortal.subscriptions through @polar-sh/sdk', () => {
  it('list, get, update (cancel, uncancel, plan change) and cancel', async () => {
    const security = await securityFor(recurring.customerId);
    const page = await polar.customerPortal.subscriptions.list(security, { active: true });
    expect(page.result.items.map((subscription) => subscription.id)).toEqual([recurring.subscriptionId]);
    const id = recurring.subscriptionId!;
    const read = await polar.customerPortal.subscriptions.get(security, { id });
    expect(read).toMatchObject({ id, status: 'active', product: { organization: { id: acme.organization.id } } });

    const canceled = await polar.customerPortal.subscriptions.update(security, {
      id,
      customerSubscriptionUpdate: { cancelAtPeriodEnd: true, cancellationReason: 'unused' },
    });
    expect(canceled).toMatchObject({ cancelAtPeriodEnd: true, customerCancellationReason: 'unused' });
    await expect(polar.customerPortal.subscriptions.cancel(security, { id })).rejects.toBeInstanceOf(
      AlreadyCanceledSubscription,
    );
    const uncanceled = await polar.customerPortal.subscriptions.update(security, {
      id,
      customerSubscriptionUpdate: { cancelAtPeriodEnd: false },
    });
    expect(uncanceled.cancelAtPeriodEnd).toBe(false);

    const { product } = await productFactory(server, acme.organization.id, {
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 2500 }],
    });
    // The new plan keeps the benefit (a change revokes what only the old plan gave): the grants below stay.
    await new Polar({ accessToken: acme.token, serverURL: server.url }).products.updateBenefits({
      id: product.id,
      productBenefitsUpdate: { benefits: [customBenefitId] },
    });
    const changed = await polar.customerPortal.subscriptions.update(security, {
      id,
      customerSubscriptionUpdate: { productId: product.id },
    });
    expect(changed).toMatchObject({ productId: product.id, amount: 2500, product: { id: product.id } });

    const ended = await polar.customerPortal.subscriptions.cancel(security, { id });
    expect(ended).toMatchObject({ id, cancelAtPeriodEnd: true, status: 'active' });
    await expect(
      polar.customerPortal.subscriptions.get(security, { id: stranger.subscriptionId! }),
    ).rejects.toBeInstanceOf(ResourceNotFound);
  });
});

describe('a plan change the organization does not allow, through @polar-sh/sdk', () => {
  it('is a 403 UpdateSubscriptionNotAllowed, which the SDK cannot type (its 403 model is AlreadyCanceledSubscription)', async () => {
    const strict = await organizationFactory(server, { name: 'Strict' });
    const seller = new Polar({ accessToken: strict.token, serverURL: server.url });
    await seller.organizations.update({
      id: strict.organization.id,
      organizationUpdate: {
        subscriptionSettings: {
          allowMultipleSubscriptions: false,
          allowCustomerUpdates: false,
          prorationBehavior: 'prorate',
        },
      },
    });
    const purchase = await purchaseFactory(server, strict, [], { recurring: true });
    const { product } = await productFactory(server, strict.organization.id, { recurring_interval: 'month' });
    const session = await seller.customerSessions.create({ customerId: purchase.customerId });
    const refused = seller.customerPortal.subscriptions.update(
      { customerSession: session.token },
      { id: purchase.subscriptionId!, customerSubscriptionUpdate: { productId: product.id } },
    );
    await expect(refused).rejects.toMatchObject({
      statusCode: 403,
      body: expect.stringContaining('UpdateSubscriptionNotAllowed'),
    });
  });
});

describe('customerPortal.benefitGrants through @polar-sh/sdk', () => {
  it('list and get, each grant with its benefit', async () => {
    const security = await securityFor(oneTime.customerId);
    const page = await polar.customerPortal.benefitGrants.list(security, { sorting: ['type'] });
    expect(page.result.items.map((grant) => grant.benefit.type)).toEqual(['custom', 'license_keys']);
    const licenseGrant = page.result.items.find((grant) => grant.benefitId === licenseBenefitId)!;
    const read = await polar.customerPortal.benefitGrants.get(security, { id: licenseGrant.id });
    expect(read).toMatchObject({
      id: licenseGrant.id,
      orderId: oneTime.orderId,
      customer: { id: oneTime.customerId },
      benefit: { type: 'license_keys', organization: { id: acme.organization.id } },
      properties: { licenseKeyId: expect.any(String), displayKey: expect.stringMatching(/^\*\*\*\*-/) },
    });
    const filtered = await polar.customerPortal.benefitGrants.list(security, {
      typeFilter: 'custom',
      checkoutId: [oneTime.checkoutId, recurring.checkoutId],
    });
    expect(filtered.result.items).toEqual([
      expect.objectContaining({
        subscriptionId: recurring.subscriptionId,
        benefit: expect.objectContaining({ properties: { note: 'Welcome aboard' } }),
      }),
    ]);
    const theirs = await waitForGrant(server, stranger.customerId, customBenefitId, () => true);
    await expect(polar.customerPortal.benefitGrants.get(security, { id: theirs.id })).rejects.toBeInstanceOf(
      ResourceNotFound,
    );
  });
});

describe('benefit grants of every type through @polar-sh/sdk', () => {
  it('each passes the SDK validation, its benefit showing only what the subscriber may see', async () => {
    const types = ['custom', 'discord', 'github_repository', 'downloadables', 'license_keys', 'meter_credit'];
    const benefits = await Promise.all(types.map((type) => typedBenefitFactory(server, acme.organization.id, type)));
    const purchase = await purchaseFactory(
      server,
      acme,
      benefits.map((benefit) => benefit.id),
    );
    // Discord and GitHub cannot be granted without their services: those grants stay pending with an error.
    for (const benefit of benefits) {
      await waitForGrant(server, purchase.customerId, benefit.id, (g) => g.granted_at !== null || g.error !== null);
    }
    const security = await securityFor(purchase.customerId);
    const page = await polar.customerPortal.benefitGrants.list(security, { limit: 10 });
    expect(page.result.items.map((grant) => grant.benefit.type).sort()).toEqual([...types].sort());
    const byType = new Map(page.result.items.map((grant) => [grant.benefit.type, grant]));
    expect(byType.get('discord')!.benefit.properties).toEqual({ guildId: '1234567890' });
    expect(byType.get('github_repository')!.benefit.properties).toEqual({
      repositoryOwner: 'acme',
      repositoryName: 'private-repo',
    });
    expect(byType.get('downloadables')!.benefit.properties).toEqual({ activeFiles: expect.any(Array) });
    expect(byType.get('meter_credit')!.properties).toMatchObject({ lastCreditedUnits: 100 });
  });
});

describe('customerPortal.organizations through @polar-sh/sdk', () => {
  it('get by slug, with or without a seller token', async () => {
    const anonymous = new Polar({ serverURL: server.url });
    const shop = await anonymous.customerPortal.organizations.get({ slug: acme.organization.slug });
    expect(shop.organization).toMatchObject({ id: acme.organization.id, slug: acme.organization.slug });
    expect(shop.products.map((product) => product.id)).toEqual(
      expect.arrayContaining([oneTime.productId, recurring.productId]),
    );
    const withToken = await polar.customerPortal.organizations.get({ slug: acme.organization.slug });
    expect(withToken.organization.id).toBe(acme.organization.id);
    await expect(anonymous.customerPortal.organizations.get({ slug: 'no-such-shop' })).rejects.toBeInstanceOf(
      ResourceNotFound,
    );
  });
});

describe('customer portal authentication through @polar-sh/sdk', () => {
  it('refuses a session token that matches nothing', async () => {
    await expect(polar.customerPortal.customers.get({ customerSession: 'polar_cst_nope' })).rejects.toBeInstanceOf(
      SDKError,
    );
  });
});
