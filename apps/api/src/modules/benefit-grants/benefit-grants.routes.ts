import { read } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { ListResourceBenefitGrant } from '../benefits/benefits.schemas.js';
import { BenefitGrantsListQuery } from './benefit-grants.schemas.js';
import { listGrants } from './benefit-grants.service.js';

export const benefitGrantRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/benefit-grants/',
    operationId: 'benefit-grants:list',
    summary: 'List benefit grants',
    tags: ['benefit-grants'],
    auth: { subjects: ['user', 'organization'], scopes: read('benefits') },
    query: BenefitGrantsListQuery,
    status: 200,
    response: ListResourceBenefitGrant,
    handler: (ctx, { query }) => listGrants(ctx, query),
  }),
];
