import type { AnyRoute } from '../platform/http/route.js';
import type { JobDefinition } from '../platform/jobs/queue.js';
import { authRoutes } from './auth/auth.routes.js';
import { organizationAccessTokenRoutes } from './organization-access-tokens/organization-access-tokens.routes.js';
import { organizationRoutes } from './organizations/organizations.routes.js';

/** Every API route, in one list: the server registers it and OpenAPI is generated from it. */
export const routes: AnyRoute[] = [...authRoutes, ...organizationRoutes, ...organizationAccessTokenRoutes];

/** Every background job the worker runs. */
export const jobs: JobDefinition<never>[] = [];
