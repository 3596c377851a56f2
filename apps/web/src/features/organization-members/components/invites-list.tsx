import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { PagedTable } from '../../../components/ui/paged-list';
import { useToast } from '../../../components/ui/toast';
import { formatDateTime } from '../../../lib/format';
import { useInvites } from '../api/get-invites';
import { useRevokeInvite } from '../api/revoke-invite';

/** Invitations sent and not yet accepted; an expired one stays listed (as expired) until withdrawn. */
export function InvitesList({ organizationId }: { organizationId: string }) {
  const [page, setPage] = useState(1);
  const query = useInvites({ id: organizationId, page, limit: 20 });
  const revoke = useRevokeInvite();
  const toast = useToast();

  return (
    <div className="space-y-3">
      <ApiErrorAlert error={revoke.error} />
      <PagedTable
        query={query}
        page={page}
        onPageChange={setPage}
        empty={
          <EmptyState title="No pending invitations" description="Invitations you send appear here until accepted." />
        }
        label="Pending invitations"
        columns={[
          { header: 'Email', className: 'font-medium', cell: (invite) => invite.email },
          {
            header: 'Status',
            cell: (invite) => <Badge>{invite.status === 'pending' ? 'Pending' : 'Expired'}</Badge>,
          },
          { header: 'Sent', cell: (invite) => formatDateTime(invite.created_at) },
          { header: 'Expires', cell: (invite) => formatDateTime(invite.expires_at) },
          {
            header: 'Actions',
            hideHeader: true,
            align: 'right',
            cell: (invite) => (
              <ConfirmButton
                aria-label={`Withdraw the invitation of ${invite.email}`}
                isPending={revoke.isPending && revoke.variables?.inviteId === invite.id}
                title={`Withdraw the invitation of ${invite.email}?`}
                description="The link in their email stops working."
                confirmLabel="Withdraw invitation"
                onConfirm={() =>
                  revoke.mutate(
                    { organizationId, inviteId: invite.id },
                    { onSuccess: () => toast('Invitation withdrawn') },
                  )
                }
              >
                Withdraw
              </ConfirmButton>
            ),
          },
        ]}
      />
    </div>
  );
}
