/**
 * Tessera SDK. The types are generated from the committed `openapi.json` (`npm run openapi`), never
 * written by hand.
 */
export type { components, operations, paths } from './generated/schema.js';
import type { components } from './generated/schema.js';

type Schemas = components['schemas'];

export type Organization = Schemas['Organization'];
export type OrganizationCreate = Schemas['OrganizationCreate'];
export type OrganizationUpdate = Schemas['OrganizationUpdate'];
export type OrganizationAccessToken = Schemas['OrganizationAccessToken'];
export type Pagination = Schemas['Pagination'];
export type HTTPValidationError = Schemas['HTTPValidationError'];
export type NamedError = Schemas['NamedError'];
