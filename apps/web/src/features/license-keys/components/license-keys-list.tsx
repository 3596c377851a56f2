import { useState } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { BulkActionBar, SelectRowCheckbox, useRowSelection } from '../../../components/ui/bulk-actions';
import { EmptyState } from '../../../components/ui/empty-state';
import { Field } from '../../../components/ui/field';
import { PagedTable, usePage } from '../../../components/ui/paged-list';
import { Select } from '../../../components/ui/select';
import { TextLink } from '../../../components/ui/text-link';
import { formatDate } from '../../../lib/format';
import { useLicenseKeyBenefits } from '../api/get-license-key-benefits';
import { LICENSE_KEYS_QUERY_KEY, useLicenseKeys } from '../api/get-license-keys';
import { updateLicenseKey } from '../api/update-license-key';
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
  const [benefitId, setBenefitId] = useState(ALL_BENEFITS);
  const [page, setPage] = usePage(benefitId);
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
  const selection = useRowSelection<NonNullable<typeof query.data>['items'][number]>();
  const rows = query.data?.items ?? [];
  const queryClient = useQueryClient();
  const benefitName = (id: string) => benefits.data?.find((benefit) => benefit.id === id)?.description ?? '—';

  return (
    <div className="space-y-4">
      {(benefits.data?.length ?? 0) > 1 && (
        <Field label="Benefit" className="w-full sm:w-72">
          <Select value={benefitId} options={benefitOptions} onValueChange={setBenefitId} />
        </Field>
      )}
      <ApiErrorAlert error={benefits.error} />
      <BulkActionBar
        items={selection.items}
        nameOf={(key) => `${key.display_key} (${key.customer.email})`}
        noun={{ one: 'license key', many: 'license keys' }}
        verb="Revoke"
        done="revoked"
        consequence="Revoked keys stop validating at once and cannot be activated again. This cannot be undone here."
        hasPage={rows.length > 0}
        allOnPageSelected={selection.allSelected(rows)}
        onTogglePage={() => selection.togglePage(rows)}
        onClear={selection.clear}
        action={(key) => updateLicenseKey({ id: key.id, body: { status: 'revoked' } })}
        onFinished={(outcome) => {
          selection.clear();
          if (outcome.succeeded.length) void queryClient.invalidateQueries({ queryKey: LICENSE_KEYS_QUERY_KEY });
        }}
      />
      <PagedTable
        query={query}
        loadingLabel="Loading license keys…"
        page={page}
        onPageChange={setPage}
        empty={
          benefitId !== ALL_BENEFITS ? (
            <EmptyState title="No keys for this benefit" description="No customer holds a key of this benefit yet." />
          ) : (
            <EmptyState
              title="No license keys yet"
              description="A key is issued to the customer when they buy a product with a license key benefit. Attach one to a product on the Benefits page."
            />
          )
        }
        label="License keys"
        columns={[
          {
            header: 'Select',
            hideHeader: true,
            cell: (key) => (
              <SelectRowCheckbox
                label={`Select ${key.display_key}`}
                checked={selection.has(key.id)}
                onChange={() => selection.toggle(key)}
              />
            ),
          },
          {
            header: 'Key',
            cell: (key) => (
              <TextLink
                className="font-mono"
                to={`${basePath}/${key.id}`}
                aria-label={`License key ${key.display_key}`}
              >
                {key.display_key}
              </TextLink>
            ),
          },
          {
            header: 'Customer',
            cell: (key) => (
              <Link
                className="text-blue-800 underline-offset-2 hover:underline"
                to={`${customersPath}/${key.customer_id}`}
              >
                {key.customer.email}
              </Link>
            ),
          },
          { header: 'Benefit', cell: (key) => benefitName(key.benefit_id) },
          { header: 'Status', cell: (key) => <LicenseKeyStatusBadge status={key.status} /> },
          { header: 'Usage', cell: (key) => formatUsage(key.usage, key.limit_usage) },
          { header: 'Expires', cell: (key) => (key.expires_at ? formatDate(key.expires_at) : 'Never') },
          { header: 'Created', cell: (key) => formatDate(key.created_at) },
        ]}
      />
    </div>
  );
}
