import { Navigate, Outlet, useLocation } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Loading } from '../../../components/ui/spinner';
import { useUser } from '../../../features/auth/api/get-user';

/** The session guard: every /dashboard page needs a signed-in user; others go to sign in and come back. */
export function Component() {
  const user = useUser();
  const location = useLocation();
  if (user.isPending) return <Loading label="Checking your session…" />;
  if (user.isError)
    return (
      <main className="mx-auto max-w-xl p-8">
        <ApiErrorAlert error={user.error} />
      </main>
    );
  if (!user.data)
    return <Navigate to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return <Outlet />;
}
