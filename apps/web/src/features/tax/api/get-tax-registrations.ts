import { queryOptions, useQuery } from '@tanstack/react-query';
import { taxRegistrationsList } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { TAX_QUERY_KEY } from './get-tax-settings';

/** Every registration of the organization (a seller has a handful: one page of 100). */
export async function getTaxRegistrations(organizationId: string) {
  return (await taxRegistrationsList(client, { organization_id: organizationId, limit: 100 })).result;
}

export function getTaxRegistrationsQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: [...TAX_QUERY_KEY, 'registrations', organizationId],
    queryFn: () => getTaxRegistrations(organizationId),
  });
}

export function useTaxRegistrations(organizationId: string) {
  return useQuery(getTaxRegistrationsQueryOptions(organizationId));
}
