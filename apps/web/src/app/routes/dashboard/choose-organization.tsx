import { Navigate } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Loading } from '../../../components/ui/spinner';
import { useOrganizations } from '../../../features/organizations/api/get-organizations';

/** /dashboard: the first organization, or creating one when there is none. */
export function Component() {
  const organizations = useOrganizations();
  if (organizations.isPending) return <Loading label="Loading your organizations…" />;
  if (organizations.isError) return <ApiErrorAlert error={organizations.error} />;
  const first = organizations.data[0];
  return <Navigate to={first ? `/dashboard/${first.slug}` : '/dashboard/new'} replace />;
}
