import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Loading } from '../../../components/ui/spinner';
import { Pagination, SortHeader, Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
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

  if (query.isPending) return <Loading />;
  if (query.isError) return <ApiErrorAlert error={query.error} />;
  if (query.data.items.length === 0 && page === 1)
    return (
      <EmptyState
        title="No access tokens"
        description="Access tokens let your servers call the Tessera API for this organization. Create one for each integration."
      />
    );
  return (
    <div className="space-y-3">
      <ApiErrorAlert error={revoke.error} />
      <Table label="Access tokens">
        <TableHead>
          <SortHeader
            label="Name"
            field="comment"
            sorting={sorting}
            onSortingChange={(value) => setSorting(value as Sorting)}
          />
          <Th>Scopes</Th>
          <SortHeader
            label="Created"
            field="created_at"
            sorting={sorting}
            onSortingChange={(value) => setSorting(value as Sorting)}
          />
          <SortHeader
            label="Last used"
            field="last_used_at"
            sorting={sorting}
            onSortingChange={(value) => setSorting(value as Sorting)}
          />
          <Th>Expires</Th>
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </TableHead>
        <tbody>
          {query.data.items.map((token) => (
            <Tr key={token.id}>
              <Td className="font-medium">{token.comment || 'Unnamed token'}</Td>
              <Td>
                <div className="flex max-w-md flex-wrap gap-1">
                  {token.scopes.map((scope) => (
                    <Badge key={scope}>{scope}</Badge>
                  ))}
                </div>
              </Td>
              <Td>{formatDateTime(token.created_at)}</Td>
              <Td>{token.last_used_at ? formatDateTime(token.last_used_at) : 'Never'}</Td>
              <Td>{token.expires_at ? formatDateTime(token.expires_at) : 'Never'}</Td>
              <Td className="text-right">
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
              </Td>
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
    </div>
  );
}
