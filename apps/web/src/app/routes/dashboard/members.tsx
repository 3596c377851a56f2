import { useNavigate } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Card, CardTitle } from '../../../components/ui/card';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { PageHeader } from '../../../components/ui/page-header';
import { useToast } from '../../../components/ui/toast';
import { useUser } from '../../../features/auth/api/get-user';
import { useLeaveOrganization } from '../../../features/organization-members/api/leave-organization';
import { InviteMemberForm } from '../../../features/organization-members/components/invite-member-form';
import { InvitesList } from '../../../features/organization-members/components/invites-list';
import { MembersList } from '../../../features/organization-members/components/members-list';
import { useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  const user = useUser();
  const leave = useLeaveOrganization();
  const navigate = useNavigate();
  const toast = useToast();

  return (
    <>
      <PageHeader
        title="Members"
        description="The people who run this organization with you. Every member sees and manages all of it."
      />
      <div className="space-y-6">
        <Card>
          <CardTitle>Invite a member</CardTitle>
          <InviteMemberForm organizationId={organization.id} />
        </Card>
        <section aria-labelledby="members-heading" className="space-y-3">
          <h2 id="members-heading" className="text-base font-semibold text-slate-900">
            Members
          </h2>
          <MembersList organizationId={organization.id} currentUserId={user.data?.id} />
        </section>
        <section aria-labelledby="invites-heading" className="space-y-3">
          <h2 id="invites-heading" className="text-base font-semibold text-slate-900">
            Pending invitations
          </h2>
          <InvitesList organizationId={organization.id} />
        </section>
        <Card>
          <CardTitle>Leave this organization</CardTitle>
          <p className="mb-3 text-sm text-slate-700">
            You lose access at once; a member can invite you again. The last member cannot leave.
          </p>
          <ApiErrorAlert error={leave.error} />
          <ConfirmButton
            isPending={leave.isPending}
            title={`Leave ${organization.name}?`}
            description="You lose access to this organization at once."
            confirmLabel="Leave organization"
            onConfirm={() =>
              leave.mutate(organization.id, {
                onSuccess: () => {
                  toast(`You left ${organization.name}`);
                  navigate('/dashboard', { replace: true });
                },
              })
            }
          >
            Leave organization
          </ConfirmButton>
        </Card>
      </div>
    </>
  );
}
