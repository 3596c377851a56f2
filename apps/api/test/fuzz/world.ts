import { randomBytes, randomUUID } from 'node:crypto';
import { downloadTokenKey, issueDownloadToken } from '../../src/modules/files/files.token.js';
import type { LightMyRequestResponse } from 'fastify';
import { GRANTABLE_SCOPES } from '../../src/platform/auth/scopes.js';
import { createKeyForGrant } from '../../src/modules/license-keys/license-keys.service.js';
import { bearer, json, type TestServer } from '../harness.js';
import { inTransaction, typedBenefitFactory } from '../factories/benefit-grants.js';
import { grantFactory } from '../factories/benefits.js';
import { checkoutFactory } from '../factories/checkouts.js';
import { checkoutLinkFactory } from '../factories/checkout-links.js';
import { customFieldFactory } from '../factories/custom-fields.js';
import { discountFactory } from '../factories/discounts.js';
import { tokenFactory, uniqueSlug } from '../factories/organizations.js';
import { subscriptionFactory } from '../factories/subscriptions.js';
import { userFactory, type UserFixture } from '../factories/users.js';
import { emitWebhookEvent, webhookEndpointFactory } from '../factories/webhooks.js';

/**
 * One organization with a resource of every kind the API addresses by a path value, and the
 * credentials to reach them: its member's dashboard session, an access token with every scope, and
 * a customer session of the customer who owns the order, subscription, grant and license key.
 */
export interface World {
  organizationId: string;
  slug: string;
  user: UserFixture;
  token: string;
  customerSession: string;
  /** The customer who bought: owner of the order, subscription, grant and license key. */
  buyerId: string;
  /** The license key's own value (public validate/activate/deactivate take it in the body). */
  licenseKeyValue: string;
  ids: WorldIds;
}

export interface WorldIds {
  organization: string;
  organizationSlug: string;
  /** A token of the organization that may be revoked (never `World.token`). */
  organizationAccessToken: string;
  benefit: string;
  benefitGrant: string;
  checkoutLink: string;
  checkout: string;
  checkoutClientSecret: string;
  customField: string;
  customer: string;
  customerExternalId: string;
  discount: string;
  licenseKey: string;
  licenseKeyActivation: string;
  order: string;
  payment: string;
  product: string;
  subscription: string;
  webhookEndpoint: string;
  webhookEvent: string;
  meter: string;
  /** A usage event of the buyer that the meter counts. */
  event: string;
  /** The type of that event (its name's, migration 0056). */
  eventType: string;
  /** The buyer's meter (seller and portal address it alike). */
  customerMeter: string;
  /** The buyer's saved card (the checkout saved it). */
  paymentMethod: string;
  /** A place the organization collects tax (docs/tax.md). */
  taxRegistration: string;
  /** An uploaded downloadable file. */
  file: string;
  /** A signed download token of the portal (of a downloadable that does not exist: 404). */
  downloadableToken: string;
  /** The organization's only member (its owner: it cannot be removed, a 403). */
  member: string;
  /** An open invitation to join the organization, and the token of its link. */
  organizationInvite: string;
  organizationInviteToken: string;
  /** An OAuth2 client the user registered. */
  oauth2Client: string;
  /** A dispute awaiting a response, opened on the order's payment as the simulated processor reports one. */
  dispute: string;
}

function ok(response: LightMyRequestResponse, what: string): any {
  if (response.statusCode >= 300) throw new Error(`${what}: ${response.statusCode} ${response.body}`);
  return json(response);
}

export async function buildWorld(server: TestServer, name = 'World'): Promise<World> {
  const user = await userFactory(server);
  const slug = uniqueSlug(name.toLowerCase());
  const organization = ok(
    await server.inject({
      method: 'POST',
      url: '/v1/organizations/',
      headers: user.headers,
      payload: { name: `${name} Organization`, slug },
    }),
    'create organization',
  );
  const organizationId: string = organization.id;
  const token = await tokenFactory(server, organizationId, GRANTABLE_SCOPES);
  const auth = bearer(token);
  const spareToken = ok(
    await server.inject({
      method: 'POST',
      url: '/v1/organization-access-tokens/',
      headers: user.headers,
      payload: { organization_id: organizationId, comment: 'spare', scopes: ['products:read'] },
    }),
    'create access token',
  );

  const subscription = await subscriptionFactory(server, organizationId, {
    email: `buyer-${randomBytes(4).toString('hex')}@example.com`,
  });
  const customerId = subscription.customer_id;
  // Customers of their own for the seller's customer operations (deleting the buyer would end the
  // portal session), one of them carrying the external ID.
  const customer = ok(
    await server.inject({
      method: 'POST',
      url: '/v1/customers/',
      headers: auth,
      payload: { email: `customer-${randomBytes(4).toString('hex')}@example.com` },
    }),
    'create customer',
  );
  const externalId = `ext-${name.toLowerCase()}-${randomBytes(4).toString('hex')}`;
  ok(
    await server.inject({
      method: 'POST',
      url: '/v1/customers/',
      headers: auth,
      payload: { email: `external-${randomBytes(4).toString('hex')}@example.com`, external_id: externalId },
    }),
    'create customer with external id',
  );
  const orders = ok(
    await server.inject({ method: 'GET', url: `/v1/orders/?customer_id=${customerId}`, headers: auth }),
    'list orders',
  );
  const payments = ok(await server.inject({ method: 'GET', url: '/v1/payments/', headers: auth }), 'list payments');

  const licenseKeys = await typedBenefitFactory(server, organizationId, 'license_keys', {
    prefix: 'FUZZ',
    expires: null,
    activations: { limit: 5, enable_customer_admin: true },
    limit_usage: 1000,
  });
  const grant = await grantFactory(server, organizationId, licenseKeys.id, { customerId });
  const key = await inTransaction(server, (ctx) => createKeyForGrant(ctx, licenseKeys, customerId));
  const activation = ok(
    await server.inject({
      method: 'POST',
      url: '/v1/customer-portal/license-keys/activate',
      payload: { key: key.key, organization_id: organizationId, label: 'laptop' },
    }),
    'activate license key',
  );

  const customField = await customFieldFactory(server, organizationId);
  const discount = await discountFactory(server, organizationId);
  const checkoutLink = await checkoutLinkFactory(server, organizationId, [subscription.product_id]);
  const checkout = await checkoutFactory(server, organizationId, [subscription.product_id]);
  const endpoint = await webhookEndpointFactory(server, organizationId);
  const event = await emitWebhookEvent(server, organizationId, 'customer.updated', { id: customerId });
  // Redelivery addresses an event as one endpoint received it.
  const endpointEvent = await server.runtime.database.db
    .selectFrom('webhook_endpoint_events')
    .select('id')
    .where('event_id', '=', event)
    .where('endpoint_id', '=', endpoint.id)
    .executeTakeFirstOrThrow();
  const meter = ok(
    await server.inject({
      method: 'POST',
      url: '/v1/meters/',
      headers: auth,
      payload: {
        name: 'API calls',
        filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api.call' }] },
        aggregation: { func: 'count' },
      },
    }),
    'create meter',
  );
  ok(
    await server.inject({
      method: 'POST',
      url: '/v1/events/ingest',
      headers: auth,
      payload: { events: [{ name: 'api.call', customer_id: customerId }] },
    }),
    'ingest event',
  );
  const events = ok(
    await server.inject({ method: 'GET', url: `/v1/events/?customer_id=${customerId}&name=api.call`, headers: auth }),
    'list events',
  );
  const eventTypes = ok(
    await server.inject({ method: 'GET', url: '/v1/event-types/?query=api.call', headers: auth }),
    'list event types',
  );
  const customerMeters = ok(
    await server.inject({
      method: 'GET',
      url: `/v1/customer-meters/?customer_id=${customerId}&meter_id=${meter.id}`,
      headers: auth,
    }),
    'list customer meters',
  );
  const taxRegistration = ok(
    await server.inject({
      method: 'POST',
      url: '/v1/tax-registrations/',
      headers: auth,
      payload: { country: 'FR', rate_basis_points: 2000, label: 'VAT' },
    }),
    'create tax registration',
  );
  const file = await uploadedFile(server, auth);
  const session = ok(
    await server.inject({
      method: 'POST',
      url: '/v1/customer-sessions/',
      headers: auth,
      payload: { customer_id: customerId },
    }),
    'create customer session',
  );
  const invite = ok(
    await server.inject({
      method: 'POST',
      url: `/v1/organizations/${organizationId}/invites`,
      headers: auth,
      payload: { email: `invitee-${randomBytes(4).toString('hex')}@example.com` },
    }),
    'invite a member',
  );
  const inviteEmail = await server.runtime.database.db
    .selectFrom('emails')
    .select('text_body')
    .where('organization_id', '=', organizationId)
    .where('template', '=', 'organization_invite')
    .executeTakeFirstOrThrow();
  const paymentMethods = ok(
    await server.inject({
      method: 'GET',
      url: '/v1/customer-portal/customers/me/payment-methods',
      headers: bearer(session.token),
    }),
    'list payment methods',
  );

  const dispute = ok(
    await server.inject({
      method: 'POST',
      url: '/v1/disputes/simulate',
      headers: bearer(token),
      payload: { order_id: orders.items[0].id },
    }),
    'dispute',
  );

  const oauth2Client = ok(
    await server.inject({
      method: 'POST',
      url: '/v1/oauth2/register',
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ client_name: `${name} app`, redirect_uris: ['https://app.example.com/callback'] }),
    }),
    'oauth2 client',
  );

  return {
    organizationId,
    slug,
    user,
    token,
    customerSession: session.token,
    buyerId: customerId,
    licenseKeyValue: key.key,
    ids: {
      organization: organizationId,
      organizationSlug: slug,
      organizationAccessToken: spareToken.organization_access_token.id,
      benefit: licenseKeys.id,
      benefitGrant: grant.id,
      checkoutLink: checkoutLink.id,
      checkout: checkout.id,
      checkoutClientSecret: checkout.client_secret,
      customField: customField.id,
      customer: customer.id,
      customerExternalId: externalId,
      discount: discount.id,
      licenseKey: key.id,
      licenseKeyActivation: activation.id,
      order: orders.items[0].id,
      dispute: dispute.id,
      payment: payments.items[0].id,
      product: subscription.product_id,
      subscription: subscription.id,
      webhookEndpoint: endpoint.id,
      webhookEvent: endpointEvent.id,
      meter: meter.id,
      event: events.items[0].id,
      eventType: eventTypes.items[0].id,
      customerMeter: customerMeters.items[0].id,
      paymentMethod: paymentMethods.items[0].id,
      taxRegistration: taxRegistration.id,
      file: file.id,
      downloadableToken: issueDownloadToken(
        downloadTokenKey(server.config.secret),
        randomUUID(),
        new Date(server.clock.now().getTime() + 365 * 86_400_000),
      ),
      member: user.id,
      organizationInvite: invite.id,
      organizationInviteToken: /\/invite\/(polar_inv_[0-9A-Za-z]+)/.exec(inviteEmail.text_body)![1]!,
      oauth2Client: oauth2Client.client_id,
    },
  };
}

/** A small downloadable file, uploaded through the local-disk part URL and completed. */
async function uploadedFile(server: TestServer, auth: Record<string, string>): Promise<{ id: string }> {
  const bytes = Buffer.from('world file');
  const created = ok(
    await server.inject({
      method: 'POST',
      url: '/v1/files/',
      headers: auth,
      payload: {
        name: 'world.txt',
        mime_type: 'text/plain',
        size: bytes.length,
        service: 'downloadable',
        upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: bytes.length }] },
      },
    }),
    'create file',
  );
  const part = created.upload.parts[0];
  const url = new URL(part.url);
  const sent = await server.inject({
    method: 'PUT',
    url: url.pathname + url.search,
    headers: part.headers,
    payload: bytes,
  });
  if (sent.statusCode !== 200) throw new Error(`upload part: ${sent.statusCode} ${sent.body}`);
  ok(
    await server.inject({
      method: 'POST',
      url: `/v1/files/${created.id}/uploaded`,
      headers: auth,
      payload: {
        id: created.upload.id,
        path: created.upload.path,
        parts: [{ number: 1, checksum_etag: sent.headers.etag, checksum_sha256_base64: null }],
      },
    }),
    'complete file',
  );
  return { id: created.id };
}

/**
 * Which world id each path value of the API takes, by the path up to and including its placeholder.
 * An operation whose path value is missing here fails the suites that need it: add the resource to
 * the world and its path here.
 */
export const PATH_VALUE_SOURCES: Record<string, keyof WorldIds> = {
  '/v1/benefits/{id}': 'benefit',
  '/v1/checkout-links/{id}': 'checkoutLink',
  '/v1/checkouts/{id}': 'checkout',
  '/v1/checkouts/client/{client_secret}': 'checkoutClientSecret',
  '/v1/custom-fields/{id}': 'customField',
  '/v1/customer-meters/{id}': 'customerMeter',
  '/v1/customer-portal/meters/{id}': 'customerMeter',
  '/v1/events/{id}': 'event',
  '/v1/event-types/{id}': 'eventType',
  '/v1/meters/{id}': 'meter',
  '/v1/customer-portal/benefit-grants/{id}': 'benefitGrant',
  '/v1/customer-portal/customers/me/payment-methods/{id}': 'paymentMethod',
  '/v1/customer-portal/license-keys/{id}': 'licenseKey',
  '/v1/customer-portal/orders/{id}': 'order',
  '/v1/customer-portal/organizations/{slug}': 'organizationSlug',
  '/v1/customer-portal/subscriptions/{id}': 'subscription',
  '/v1/customers/{id}': 'customer',
  '/v1/customer-portal/downloadables/{token}': 'downloadableToken',
  '/v1/files/{id}': 'file',
  '/v1/customers/external/{external_id}': 'customerExternalId',
  '/v1/discounts/{id}': 'discount',
  '/v1/disputes/{id}': 'dispute',
  '/v1/license-keys/{id}': 'licenseKey',
  '/v1/license-keys/{id}/activations/{activation_id}': 'licenseKeyActivation',
  '/v1/orders/{id}': 'order',
  '/v1/organization-access-tokens/{id}': 'organizationAccessToken',
  '/v1/organizations/{id}': 'organization',
  '/v1/organizations/{id}/members/{user_id}': 'member',
  '/v1/organizations/{id}/invites/{invite_id}': 'organizationInvite',
  '/v1/organization-invites/{token}': 'organizationInviteToken',
  '/v1/payments/{id}': 'payment',
  '/v1/products/{id}': 'product',
  '/v1/subscriptions/{id}': 'subscription',
  '/v1/tax-registrations/{id}': 'taxRegistration',
  '/v1/webhooks/endpoints/{id}': 'webhookEndpoint',
  '/v1/webhooks/events/{id}': 'webhookEvent',
  '/v1/oauth2/register/{client_id}': 'oauth2Client',
};

/** The placeholders of a path template, each with the key of PATH_VALUE_SOURCES it is looked up by. */
export function pathPlaceholders(template: string): { name: string; source: string }[] {
  const out: { name: string; source: string }[] = [];
  for (const match of template.matchAll(/\{(\w+)\}/g)) {
    out.push({ name: match[1]!, source: template.slice(0, match.index + match[0].length) });
  }
  return out;
}

/** The path with each placeholder replaced by `value(name, source)`, percent-encoded. */
export function fillPath(template: string, value: (name: string, source: string) => string): string {
  let path = template;
  for (const { name, source } of pathPlaceholders(template)) {
    path = path.replace(`{${name}}`, encodeURIComponent(value(name, source)));
  }
  return path;
}

/** The world's value for one placeholder, or an error naming what to add. */
export function worldValue(world: World, source: string): string {
  const key = PATH_VALUE_SOURCES[source];
  if (!key) throw new Error(`No id source for ${source}: add the resource to test/fuzz/world.ts`);
  return world.ids[key];
}
