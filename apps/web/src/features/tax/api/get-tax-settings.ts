import { queryOptions, useQuery } from '@tanstack/react-query';
import { taxSettingsGet } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export const TAX_QUERY_KEY = ['tax'] as const;

export function getTaxSettings(organizationId: string) {
  return taxSettingsGet(client, { organization_id: organizationId });
}

export function getTaxSettingsQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: [...TAX_QUERY_KEY, 'settings', organizationId],
    queryFn: () => getTaxSettings(organizationId),
  });
}

export function useTaxSettings(organizationId: string) {
  return useQuery(getTaxSettingsQueryOptions(organizationId));
}
