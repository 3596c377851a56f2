import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { PagedTable } from '../../../components/ui/paged-list';
import { Select } from '../../../components/ui/select';
import { useToast } from '../../../components/ui/toast';
import { formatDate } from '../../../lib/format';
import { useMembers } from '../api/get-members';
import { useRemoveMember } from '../api/remove-member';
import { useUpdateMemberRole } from '../api/update-member-role';

const ROLE_OPTIONS = [
  { value: 'owner', label: 'Owner' },
  { value: 'member', label: 'Member' },
] as const;
const roleLabel = (role: string) => (role === 'owner' ? 'Owner' : 'Member');

export interface MembersListProps {
  organizationId: string;
  /** The signed-in user: their own row offers Leave (handled by the page), not Remove. */
  currentUserId: string | undefined;
}

export function MembersList({ organizationId, currentUserId }: MembersListProps) {
  const [page, setPage] = useState(1);
  const query = useMembers({ id: organizationId, page, limit: 20 });
  const remove = useRemoveMember();
  const updateRole = useUpdateMemberRole();
  const toast = useToast();
  // Only owners change roles (the API says so too): they get a picker, everyone else the badge.
  const isOwner = query.data?.items.some((m) => m.user_id === currentUserId && m.role === 'owner') ?? false;
  // Rows are keyed by user: the table wants an `id`.
  const rows = query.data
    ? { ...query.data, items: query.data.items.map((m) => ({ ...m, id: m.user_id })) }
    : undefined;

  return (
    <div className="space-y-3">
      <ApiErrorAlert error={remove.error ?? updateRole.error} />
      <PagedTable
        query={{ ...query, data: rows }}
        page={page}
        onPageChange={setPage}
        empty={<EmptyState title="No members" description="Invite someone to work on this organization with you." />}
        label="Members"
        columns={[
          {
            header: 'Email',
            className: 'font-medium',
            cell: (member) => (member.user_id === currentUserId ? `${member.email} (you)` : member.email),
          },
          {
            header: 'Role',
            cell: (member) =>
              isOwner ? (
                <Select
                  aria-label={`Role of ${member.email}`}
                  className="h-9 w-32"
                  value={member.role}
                  options={ROLE_OPTIONS}
                  disabled={updateRole.isPending}
                  onValueChange={(role) => {
                    if (role !== 'owner' && role !== 'member') return;
                    remove.reset();
                    updateRole.mutate(
                      { organizationId, userId: member.user_id, role },
                      { onSuccess: () => toast(`${member.email} is now ${roleLabel(role).toLowerCase()}`) },
                    );
                  }}
                />
              ) : (
                <Badge>{roleLabel(member.role)}</Badge>
              ),
          },
          { header: 'Joined', cell: (member) => formatDate(member.created_at) },
          {
            header: 'Actions',
            hideHeader: true,
            align: 'right',
            cell: (member) =>
              member.user_id === currentUserId ? null : (
                <ConfirmButton
                  aria-label={`Remove ${member.email}`}
                  isPending={remove.isPending && remove.variables?.userId === member.user_id}
                  title={`Remove ${member.email}?`}
                  description="They lose access to this organization at once. You can invite them again later."
                  confirmLabel="Remove member"
                  onConfirm={() => {
                    updateRole.reset();
                    remove.mutate(
                      { organizationId, userId: member.user_id },
                      { onSuccess: () => toast(`${member.email} removed`) },
                    );
                  }}
                >
                  Remove
                </ConfirmButton>
              ),
          },
        ]}
      />
    </div>
  );
}
