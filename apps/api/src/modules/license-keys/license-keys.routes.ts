import { read, write } from '../../platform/auth/scopes.js';
import { PUBLIC } from '../../platform/auth/subject.js';
import { NoContent, defineRoute } from '../../platform/http/route.js';
import { mapPage } from '../../platform/http/query.js';
import { IdParams } from '../../platform/http/schemas.js';
import {
  ActivationParams,
  LicenseKeyActivate,
  LicenseKeyActivationRead,
  LicenseKeyDeactivate,
  LicenseKeyListQuery,
  LicenseKeyRead,
  LicenseKeyUpdate,
  LicenseKeyValidate,
  LicenseKeyWithActivations,
  ListResourceLicenseKeyRead,
  PortalLicenseKeyListQuery,
  ValidatedLicenseKey,
} from './license-keys.schemas.js';
import {
  serializeActivation,
  serializeLicenseKey,
  serializeLicenseKeyWithActivations,
  serializeValidated,
} from './license-keys.serializer.js';
import {
  activateAsSeller,
  deactivateAsSeller,
  getActivation,
  getLicenseKey,
  getPortalLicenseKey,
  listLicenseKeys,
  listPortalLicenseKeys,
  publicActivate,
  publicDeactivate,
  publicValidate,
  updateLicenseKeyAsSeller,
  validateAsSeller,
} from './license-keys.service.js';

const tags = ['license_keys'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

export const licenseKeyRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/license-keys/',
    operationId: 'license_keys:list',
    summary: 'List license keys',
    tags,
    auth: { subjects, scopes: read('license_keys') },
    query: LicenseKeyListQuery,
    errors: ['Unauthorized', 'ResourceNotFound'],
    status: 200,
    response: ListResourceLicenseKeyRead,
    handler: async (ctx, { query }) =>
      mapPage(await listLicenseKeys(ctx, query), ({ row, customer }) => serializeLicenseKey(row, customer)),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/license-keys/{id}',
    operationId: 'license_keys:get',
    summary: 'Get a license key',
    tags,
    auth: { subjects, scopes: read('license_keys') },
    params: IdParams,
    errors: ['Unauthorized', 'ResourceNotFound'],
    status: 200,
    response: LicenseKeyWithActivations,
    handler: async (ctx, { params }) => {
      const { row, customer, activations } = await getLicenseKey(ctx, params.id);
      return serializeLicenseKeyWithActivations(row, customer, activations);
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/license-keys/{id}',
    operationId: 'license_keys:update',
    summary: 'Update a license key',
    tags,
    auth: { subjects, scopes: write('license_keys') },
    params: IdParams,
    body: LicenseKeyUpdate,
    errors: ['Unauthorized', 'ResourceNotFound'],
    status: 200,
    response: LicenseKeyRead,
    handler: async (ctx, { params, body }) => {
      const { row, customer } = await updateLicenseKeyAsSeller(ctx, params.id, body);
      return serializeLicenseKey(row, customer);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/license-keys/{id}/activations/{activation_id}',
    operationId: 'license_keys:get_activation',
    summary: 'Get a license key activation',
    tags,
    auth: { subjects, scopes: read('license_keys') },
    params: ActivationParams,
    errors: ['Unauthorized', 'ResourceNotFound'],
    status: 200,
    response: LicenseKeyActivationRead,
    handler: async (ctx, { params }) => {
      const { activation, key, customer } = await getActivation(ctx, params.id, params.activation_id);
      return serializeActivation(activation, key, customer);
    },
  }),
  // The organization's own validate/activate/deactivate: the public calls' rules and bodies (the
  // organization in the body must be one the caller may see), without their per-key rate limit.
  defineRoute({
    method: 'POST',
    path: '/v1/license-keys/validate',
    operationId: 'license_keys:validate',
    summary: 'Validate a license key',
    tags,
    auth: { subjects, scopes: write('license_keys') },
    body: LicenseKeyValidate,
    errors: ['ResourceNotFound', 'BadRequest'],
    status: 200,
    response: ValidatedLicenseKey,
    handler: async (ctx, { body }) => {
      const { key, customer, activation } = await validateAsSeller(ctx, body);
      return serializeValidated(key, customer, activation);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/license-keys/activate',
    operationId: 'license_keys:activate',
    summary: 'Activate a license key',
    tags,
    auth: { subjects, scopes: write('license_keys') },
    body: LicenseKeyActivate,
    errors: ['ResourceNotFound', 'NotPermitted'],
    status: 200,
    response: LicenseKeyActivationRead,
    handler: async (ctx, { body }) => {
      const { activation, key, customer } = await activateAsSeller(ctx, body);
      return serializeActivation(activation, key, customer);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/license-keys/deactivate',
    operationId: 'license_keys:deactivate',
    summary: 'Deactivate a license key',
    tags,
    auth: { subjects, scopes: write('license_keys') },
    body: LicenseKeyDeactivate,
    errors: ['ResourceNotFound'],
    status: 204,
    response: NoContent,
    handler: async (ctx, { body }) => deactivateAsSeller(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/customer-portal/license-keys/',
    operationId: 'customer_portal:license_keys:list',
    summary: "List the customer's license keys",
    tags: ['customer_portal'],
    auth: { subjects: ['customer'], scopes: read('customer_portal') },
    query: PortalLicenseKeyListQuery,
    errors: ['Unauthorized', 'ResourceNotFound'],
    status: 200,
    response: ListResourceLicenseKeyRead,
    handler: async (ctx, { query }) =>
      mapPage(await listPortalLicenseKeys(ctx, query), ({ row, customer }) => serializeLicenseKey(row, customer)),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/customer-portal/license-keys/{id}',
    operationId: 'customer_portal:license_keys:get',
    summary: "Get one of the customer's license keys",
    tags: ['customer_portal'],
    auth: { subjects: ['customer'], scopes: read('customer_portal') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: LicenseKeyWithActivations,
    handler: async (ctx, { params }) => {
      const { row, customer, activations } = await getPortalLicenseKey(ctx, params.id);
      return serializeLicenseKeyWithActivations(row, customer, activations);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/customer-portal/license-keys/validate',
    operationId: 'customer_portal:license_keys:validate',
    summary: 'Validate a license key',
    tags: ['customer_portal'],
    auth: PUBLIC,
    body: LicenseKeyValidate,
    errors: ['ResourceNotFound', 'BadRequest', 'TooManyRequests'],
    status: 200,
    response: ValidatedLicenseKey,
    handler: async (ctx, { body }) => {
      const { key, customer, activation } = await publicValidate(ctx, body);
      return serializeValidated(key, customer, activation);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/customer-portal/license-keys/activate',
    operationId: 'customer_portal:license_keys:activate',
    summary: 'Activate a license key',
    tags: ['customer_portal'],
    auth: PUBLIC,
    body: LicenseKeyActivate,
    errors: ['ResourceNotFound', 'NotPermitted', 'TooManyRequests'],
    status: 200,
    response: LicenseKeyActivationRead,
    handler: async (ctx, { body }) => {
      const { activation, key, customer } = await publicActivate(ctx, body);
      return serializeActivation(activation, key, customer);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/customer-portal/license-keys/deactivate',
    operationId: 'customer_portal:license_keys:deactivate',
    summary: 'Deactivate a license key',
    tags: ['customer_portal'],
    auth: PUBLIC,
    body: LicenseKeyDeactivate,
    errors: ['ResourceNotFound', 'TooManyRequests'],
    status: 204,
    response: NoContent,
    handler: async (ctx, { body }) => publicDeactivate(ctx, body),
  }),
];
