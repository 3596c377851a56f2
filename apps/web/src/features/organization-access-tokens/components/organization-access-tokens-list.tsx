import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { PagedTable } from '../../../components/ui/paged-list';
import { useToast } from '../../../components/ui/toast';
import { formatDateTime } from '../../../lib/format';
import { useDeleteOrganizationAccessToken } from '../api/delete-organization-access-token';
import { useOrganizationAccessTokens } from '../api/get-organization-access-tokens';

type Sorting = NonNullable<Parameters<typeof useOrganizationAccessTokens>[0]['sorting']>[number];

export function OrganizationAccessTokensList({ organizationId }: { organizationId: string }) {
  const [page, setPage] = useState(1);
  const [sorting, setSorting] = useState<Sorting>('-created_at');
  const query = useOrganizationAccessTokens({ organization_id: organizationId, page, limit: 20, sorting: [sorting] });
  const revoke = useDeleteOrganizationAccessToken();
  const toast = useToast();

  return (
    <div className="space-y-3">
      <ApiErrorAlert error={revoke.error} />
      <PagedTable
        query={query}
        page={page}
        onPageChange={setPage}
        empty={
          <EmptyState
            title="No access tokens"
            description="Access tokens let your servers call the Tessera API for this organization. Create one for each integration."
          />
        }
        label="Access tokens"
        sorting={sorting}
        onSortingChange={setSorting}
        columns={[
          {
            header: 'Name',
            sortField: 'comment',
            className: 'font-medium',
            cell: (token) => token.comment || 'Unnamed token',
          },
          {
            header: 'Scopes',
            cell: (token) => (
              <div className="flex max-w-md flex-wrap gap-1">
                {token.scopes.map((scope) => (
                  <Badge key={scope}>{scope}</Badge>
                ))}
              </div>
            ),
          },
          { header: 'Created', sortField: 'created_at', cell: (token) => formatDateTime(token.created_at) },
          {
            header: 'Last used',
            sortField: 'last_used_at',
            cell: (token) => (token.last_used_at ? formatDateTime(token.last_used_at) : 'Never'),
          },
          { header: 'Expires', cell: (token) => (token.expires_at ? formatDateTime(token.expires_at) : 'Never') },
          {
            header: 'Actions',
            hideHeader: true,
            align: 'right',
            cell: (token) => (
              <ConfirmButton
                aria-label={`Revoke ${token.comment || 'unnamed token'}`}
                isPending={revoke.isPending && revoke.variables === token.id}
                title={`Revoke “${token.comment || 'unnamed token'}”?`}
                description="Calls made with this token will fail from now on. This cannot be undone."
                confirmLabel="Revoke token"
                onConfirm={() => revoke.mutate(token.id, { onSuccess: () => toast('Access token revoked') })}
              >
                Revoke
              </ConfirmButton>
            ),
          },
        ]}
      />
    </div>
  );
}
