import { useState } from 'react';
import { Link } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { EmptyState } from '../../../components/ui/empty-state';
import { Field } from '../../../components/ui/field';
import { Select } from '../../../components/ui/select';
import { Loading } from '../../../components/ui/spinner';
import { Pagination, Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
import { formatDate } from '../../../lib/format';
import { useLicenseKeyBenefits } from '../api/get-license-key-benefits';
import { useLicenseKeys } from '../api/get-license-keys';
import { formatUsage, LicenseKeyStatusBadge } from './license-key-status';

const ALL_BENEFITS = 'all';

export interface LicenseKeysListProps {
  organizationId: string;
  /** Where a key's page lives: `${basePath}/${id}`. */
  basePath: string;
  /** Where a customer's page lives: `${customersPath}/${id}`. */
  customersPath: string;
}

export function LicenseKeysList({ organizationId, basePath, customersPath }: LicenseKeysListProps) {
  const [page, setPage] = useState(1);
  const [benefitId, setBenefitId] = useState(ALL_BENEFITS);
  const benefits = useLicenseKeyBenefits(organizationId);
  const query = useLicenseKeys({
    organization_id: organizationId,
    benefit_id: benefitId === ALL_BENEFITS ? undefined : benefitId,
    page,
    limit: 20,
  });
  const benefitOptions = [
    { value: ALL_BENEFITS, label: 'All benefits' },
    ...(benefits.data ?? []).map((benefit) => ({ value: benefit.id, label: benefit.description })),
  ];
  const benefitName = (id: string) => benefits.data?.find((benefit) => benefit.id === id)?.description ?? '—';

  return (
    <div className="space-y-4">
      {(benefits.data?.length ?? 0) > 1 && (
        <Field label="Benefit" className="w-full sm:w-72">
          <Select
            value={benefitId}
            options={benefitOptions}
            onValueChange={(value) => {
              setBenefitId(value);
              setPage(1);
            }}
          />
        </Field>
      )}
      <ApiErrorAlert error={benefits.error} />
      {query.isPending ? (
        <Loading label="Loading license keys…" />
      ) : query.isError ? (
        <ApiErrorAlert error={query.error} />
      ) : query.data.items.length === 0 ? (
        benefitId !== ALL_BENEFITS ? (
          <EmptyState title="No keys for this benefit" description="No customer holds a key of this benefit yet." />
        ) : (
          <EmptyState
            title="No license keys yet"
            description="A key is issued to the customer when they buy a product with a license key benefit. Attach one to a product on the Benefits page."
          />
        )
      ) : (
        <>
          <Table label="License keys">
            <TableHead>
              <Th>Key</Th>
              <Th>Customer</Th>
              <Th>Benefit</Th>
              <Th>Status</Th>
              <Th>Usage</Th>
              <Th>Expires</Th>
              <Th>Created</Th>
            </TableHead>
            <tbody>
              {query.data.items.map((key) => (
                <Tr key={key.id}>
                  <Td>
                    <Link
                      className="font-mono font-medium text-blue-800 underline-offset-2 hover:underline"
                      to={`${basePath}/${key.id}`}
                      aria-label={`License key ${key.display_key}`}
                    >
                      {key.display_key}
                    </Link>
                  </Td>
                  <Td>
                    <Link
                      className="text-blue-800 underline-offset-2 hover:underline"
                      to={`${customersPath}/${key.customer_id}`}
                    >
                      {key.customer.email}
                    </Link>
                  </Td>
                  <Td>{benefitName(key.benefit_id)}</Td>
                  <Td>
                    <LicenseKeyStatusBadge status={key.status} />
                  </Td>
                  <Td>{formatUsage(key.usage, key.limit_usage)}</Td>
                  <Td>{key.expires_at ? formatDate(key.expires_at) : 'Never'}</Td>
                  <Td>{formatDate(key.created_at)}</Td>
                </Tr>
              ))}
            </tbody>
          </Table>
          <Pagination
            page={page}
            maxPage={query.data.pagination.max_page}
            totalCount={query.data.pagination.total_count}
            onPageChange={setPage}
          />
        </>
      )}
    </div>
  );
}
