import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { taxReportsGet, type TaxReportsGetRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { TAX_QUERY_KEY } from './get-tax-settings';

export function getTaxReport(request: TaxReportsGetRequest) {
  return taxReportsGet(client, request);
}

export function getTaxReportQueryOptions(request: TaxReportsGetRequest) {
  return queryOptions({
    queryKey: [...TAX_QUERY_KEY, 'report', request],
    queryFn: () => getTaxReport(request),
    placeholderData: keepPreviousData,
  });
}

export function useTaxReport(request: TaxReportsGetRequest) {
  return useQuery(getTaxReportQueryOptions(request));
}

/** The CSV export's address: a plain link the browser downloads with the session cookie. */
export function taxReportCsvUrl(request: { organization_id: string; start_date: string; end_date: string }) {
  const query = new URLSearchParams(request);
  return `/v1/tax-reports/csv?${query.toString()}`;
}
