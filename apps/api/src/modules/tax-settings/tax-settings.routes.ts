import { read, write } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { TaxSettings, TaxSettingsQuery, TaxSettingsUpdate } from './tax-settings.schemas.js';
import { getTaxSettings, updateTaxSettings } from './tax-settings.service.js';

const tags = ['tax'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

/** An organization's tax settings (an extension: docs/tax.md). */
export const taxSettingsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/tax-settings/',
    operationId: 'tax_settings:get',
    summary: "Get an organization's tax settings",
    tags,
    extension: true,
    auth: { subjects, scopes: read('organizations') },
    query: TaxSettingsQuery,
    status: 200,
    response: TaxSettings,
    handler: async (ctx, { query }) => getTaxSettings(ctx, query.organization_id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/tax-settings/',
    operationId: 'tax_settings:update',
    summary: "Update an organization's tax settings",
    tags,
    extension: true,
    auth: { subjects, scopes: write('organizations') },
    body: TaxSettingsUpdate,
    status: 200,
    response: TaxSettings,
    handler: async (ctx, { body }) => updateTaxSettings(ctx, body),
  }),
];
