import { Link, useNavigate } from 'react-router';
import { CreateOrganizationForm } from '../../../features/organizations/components/create-organization-form';
import { useOrganizations } from '../../../features/organizations/api/get-organizations';

export function Component() {
  const navigate = useNavigate();
  const organizations = useOrganizations();
  const isFirst = organizations.data?.length === 0;
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-md space-y-6">
        <div>
          <p className="text-lg font-bold tracking-tight text-blue-800">Tessera</p>
          <h1 className="mt-2 text-2xl font-semibold text-slate-900">
            {isFirst ? 'Create your first organization' : 'New organization'}
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            An organization holds your products, customers and payouts. You can create more later.
          </p>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <CreateOrganizationForm onCreated={(organization) => navigate(`/dashboard/${organization.slug}`)} />
        </div>
        {!isFirst && (
          <Link className="text-sm font-medium text-blue-800 underline" to="/dashboard">
            Back to the dashboard
          </Link>
        )}
      </div>
    </main>
  );
}
