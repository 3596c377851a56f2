import { read, write } from '../../../platform/auth/scopes.js';
import { defineRoute } from '../../../platform/http/route.js';
import { IdParams } from '../../../platform/http/schemas.js';
import {
  CustomerBenefitGrant,
  CustomerBenefitGrantListQuery,
  CustomerBenefitGrantUpdate,
  ListResourceCustomerBenefitGrant,
} from './benefit-grants.schemas.js';
import {
  getCustomerBenefitGrant,
  listCustomerBenefitGrants,
  updateCustomerBenefitGrant,
} from './benefit-grants.service.js';

const tags = ['customer_portal'];

export const portalBenefitGrantRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/customer-portal/benefit-grants/',
    operationId: 'customer_portal:benefit_grants:list',
    summary: "List the customer's benefit grants",
    tags,
    auth: { subjects: ['customer'], scopes: read('customer_portal') },
    query: CustomerBenefitGrantListQuery,
    status: 200,
    response: ListResourceCustomerBenefitGrant,
    handler: (ctx, { query }) => listCustomerBenefitGrants(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/customer-portal/benefit-grants/{id}',
    operationId: 'customer_portal:benefit_grants:get',
    summary: "Get one of the customer's benefit grants",
    tags,
    auth: { subjects: ['customer'], scopes: read('customer_portal') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: CustomerBenefitGrant,
    handler: (ctx, { params }) => getCustomerBenefitGrant(ctx, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/customer-portal/benefit-grants/{id}',
    operationId: 'customer_portal:benefit_grants:update',
    summary: "Choose the connected account one of the customer's Discord or GitHub grants goes to",
    tags,
    auth: { subjects: ['customer'], scopes: write('customer_portal') },
    params: IdParams,
    body: CustomerBenefitGrantUpdate,
    errors: ['ResourceNotFound', 'NotPermitted'],
    status: 200,
    response: CustomerBenefitGrant,
    handler: (ctx, { params, body }) => updateCustomerBenefitGrant(ctx, params.id, body),
  }),
];
