import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiErrorAlert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Loading } from '../../components/ui/spinner';
import { useUser } from '../../features/auth/api/get-user';
import { useAcceptInvitation } from '../../features/organization-members/api/accept-invitation';
import { useInvitation } from '../../features/organization-members/api/get-invitation';
import { ORGANIZATIONS_QUERY_KEY } from '../../features/organizations/api/get-organizations';
import { AuthPage } from './auth/auth-page';

/**
 * /invite/:token, the link of an invitation email. Signed in with the invited address: Accept. Signed
 * out: sign in or create the account, then come back here (`next`).
 */
export function Component() {
  const { token = '' } = useParams();
  const invitation = useInvitation(token);
  const user = useUser();
  const accept = useAcceptInvitation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const here = `/invite/${encodeURIComponent(token)}`;

  if (invitation.isPending || user.isPending) {
    return (
      <AuthPage title="Invitation">
        <Loading label="Reading the invitation…" />
      </AuthPage>
    );
  }
  if (invitation.isError) {
    return (
      <AuthPage title="Invitation">
        <ApiErrorAlert error={invitation.error} />
        <p className="mt-4 text-sm">
          <Link className="font-medium text-blue-800 underline" to="/dashboard">
            Go to the dashboard
          </Link>
        </p>
      </AuthPage>
    );
  }
  const { organization_name: name, email } = invitation.data;
  const signedIn = user.data ?? null;

  return (
    <AuthPage title={`Join ${name}`}>
      <div className="space-y-4 text-sm text-slate-800">
        <p>
          You are invited to join <strong>{name}</strong> as <strong>{email}</strong>.
        </p>
        {signedIn ? (
          <>
            <p>Signed in as {signedIn.email}.</p>
            <ApiErrorAlert error={accept.error} />
            <Button
              className="w-full"
              isPending={accept.isPending}
              onClick={() =>
                accept.mutate(token, {
                  onSuccess: async (organization) => {
                    await queryClient.invalidateQueries({ queryKey: ORGANIZATIONS_QUERY_KEY });
                    navigate(`/dashboard/${organization.slug}`, { replace: true });
                  },
                })
              }
            >
              Accept the invitation
            </Button>
          </>
        ) : (
          <>
            <p>Sign in with {email} to accept, or create an account with that address.</p>
            <div className="flex flex-col gap-2">
              <Link
                className="rounded-md bg-blue-700 px-4 py-2 text-center font-medium text-white hover:bg-blue-800"
                to={`/login?next=${encodeURIComponent(here)}`}
              >
                Sign in
              </Link>
              <Link
                className="rounded-md border border-slate-300 px-4 py-2 text-center font-medium text-slate-800 hover:bg-slate-50"
                to={`/signup?next=${encodeURIComponent(here)}`}
              >
                Create an account
              </Link>
            </div>
          </>
        )}
      </div>
    </AuthPage>
  );
}
