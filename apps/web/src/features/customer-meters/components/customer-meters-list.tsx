import type { CustomerMetersListRequest } from '@tessera/sdk';
import { useState } from 'react';
import { EmptyState } from '../../../components/ui/empty-state';
import { PagedTable, usePage } from '../../../components/ui/paged-list';
import { TextLink } from '../../../components/ui/text-link';
import { formatUnits } from '../../../lib/format';
import { useCustomerMeters } from '../api/get-customer-meters';

type Sorting = NonNullable<CustomerMetersListRequest['sorting']>[number];

export interface CustomerMetersListProps {
  organizationId: string;
  /** The organization's dashboard path: customers and meters link below it. */
  dashboardPath: string;
  /** One meter's customers (the meter page), or one customer's meters (the customer page). */
  meterId?: string;
  customerId?: string;
  label: string;
}

/**
 * Consumed, credited and balance per customer and meter, over each customer's current window (since the
 * meter's last reset at renewal). A meter's page lists its customers; a customer's page, its meters.
 */
export function CustomerMetersList({
  organizationId,
  dashboardPath,
  meterId,
  customerId,
  label,
}: CustomerMetersListProps) {
  const [sorting, setSorting] = useState<Sorting>(meterId ? '-consumed_units' : 'meter_name');
  const [page, setPage] = usePage(sorting);
  const query = useCustomerMeters({
    organization_id: organizationId,
    meter_id: meterId,
    customer_id: customerId,
    sorting: [sorting],
    page,
    limit: 20,
  });

  return (
    <PagedTable
      query={query}
      loadingLabel="Loading usage…"
      page={page}
      onPageChange={setPage}
      empty={
        meterId ? (
          <EmptyState
            title="No customer usage yet"
            description="Once events this meter counts arrive for a customer, or the customer is credited units on it, the customer appears here."
          />
        ) : (
          <EmptyState
            title="No usage"
            description="This customer has no events counted by a meter and no meter credits yet."
          />
        )
      }
      label={label}
      sorting={sorting}
      onSortingChange={setSorting}
      columns={[
        !customerId && {
          header: 'Customer',
          sortField: 'customer_name',
          cell: (row) => <TextLink to={`${dashboardPath}/customers/${row.customer_id}`}>{row.customer.email}</TextLink>,
        },
        !meterId && {
          header: 'Meter',
          sortField: 'meter_name',
          cell: (row) => <TextLink to={`${dashboardPath}/meters/${row.meter_id}`}>{row.meter.name}</TextLink>,
        },
        {
          header: 'Consumed',
          sortField: 'consumed_units',
          align: 'right',
          cell: (row) => formatUnits(row.consumed_units),
        },
        {
          header: 'Credited',
          sortField: 'credited_units',
          align: 'right',
          cell: (row) => formatUnits(row.credited_units),
        },
        {
          header: 'Balance',
          sortField: 'balance',
          align: 'right',
          cell: (row) => (
            <span className={row.balance < 0 ? 'font-medium text-amber-800' : undefined}>
              {formatUnits(row.balance)}
            </span>
          ),
        },
      ]}
    />
  );
}
