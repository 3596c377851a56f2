import { useQueryClient } from '@tanstack/react-query';
import { APIError } from '@tessera/sdk';
import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Loading } from '../../../components/ui/spinner';
import { useUser } from '../../../features/auth/api/get-user';
import { useSignOut } from '../../../features/auth/api/sign-out';
import { ORGANIZATIONS_QUERY_KEY, useOrganizations } from '../../../features/organizations/api/get-organizations';
import { OrganizationSwitcher } from '../../../features/organizations/components/organization-switcher';
import { CommandPalette } from '../../../features/search/components/command-palette';
import { ThemeToggle } from '../../../components/theme/theme-toggle';
import { cn } from '../../../lib/cn';
import { useDocumentTheme, useThemePreference } from '../../../lib/theme';

const NAVIGATION = [
  { to: 'overview', label: 'Overview' },
  { to: 'products', label: 'Products' },
  { to: 'benefits', label: 'Benefits' },
  { to: 'discounts', label: 'Discounts' },
  { to: 'checkout-links', label: 'Checkout links' },
  { to: 'customers', label: 'Customers' },
  { to: 'meters', label: 'Meters' },
  { to: 'events', label: 'Events' },
  { to: 'orders', label: 'Orders' },
  { to: 'subscriptions', label: 'Subscriptions' },
  { to: 'payments', label: 'Payments' },
  { to: 'refunds', label: 'Refunds' },
  { to: 'license-keys', label: 'License keys' },
  { to: 'tax-report', label: 'Tax report' },
  { to: 'settings', label: 'Settings', end: true },
  { to: 'settings/members', label: 'Members' },
  { to: 'settings/access-tokens', label: 'Access tokens' },
  { to: 'settings/oauth-apps', label: 'OAuth apps' },
  { to: 'settings/webhooks', label: 'Webhooks' },
  { to: 'settings/custom-fields', label: 'Custom fields' },
  { to: 'settings/tax', label: 'Tax' },
];

/**
 * Membership can end while a page is open (another member removed this user). The API then answers
 * 404 (or 403) to everything of the organization, and lists come back empty. So the list of
 * organizations is fetched again on every move to another page and on the first such refusal, and the
 * layout below says the user is no longer a member instead of showing cached pages.
 */
function useRecheckMembership() {
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const shownPath = useRef(pathname);
  useEffect(() => {
    // Not on the first page: the list was just fetched to show it.
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    void queryClient.invalidateQueries({ queryKey: ORGANIZATIONS_QUERY_KEY });
  }, [queryClient, pathname]);
  useEffect(() => {
    const denied = (error: unknown) =>
      error instanceof APIError && (error.statusCode === 404 || error.statusCode === 403);
    const recheck = () => void queryClient.invalidateQueries({ queryKey: ORGANIZATIONS_QUERY_KEY });
    const unsubscribeQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'error') return;
      if (event.query.queryKey[0] === ORGANIZATIONS_QUERY_KEY[0]) return;
      if (denied(event.action.error)) recheck();
    });
    const unsubscribeMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error' && denied(event.action.error)) recheck();
    });
    return () => {
      unsubscribeQueries();
      unsubscribeMutations();
    };
  }, [queryClient]);
}

export function Component() {
  const { slug } = useParams();
  const organizations = useOrganizations();
  useRecheckMembership();
  const user = useUser();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const [isMenuOpen, setIsMenuOpen] = useState(false);
  const { preference, theme, setPreference } = useThemePreference();
  useDocumentTheme(theme);

  if (organizations.isPending) return <Loading label="Loading organization…" />;
  if (organizations.isError)
    return (
      <main className="mx-auto max-w-xl p-8">
        <ApiErrorAlert error={organizations.error} />
      </main>
    );
  const organization = organizations.data.find((candidate) => candidate.slug === slug);
  if (!organization)
    return (
      <main className="mx-auto max-w-xl p-8">
        <EmptyState
          title="Organization not found"
          description={`You are not a member of an organization called “${slug}”.`}
          action={
            <Link className="text-sm font-medium text-blue-800 underline" to="/dashboard">
              Go to your organizations
            </Link>
          }
        />
      </main>
    );

  const sidebar = (
    <>
      <OrganizationSwitcher current={organization} organizations={organizations.data} />
      <div className="mt-4">
        <CommandPalette organizationId={organization.id} basePath={`/dashboard/${organization.slug}`} />
      </div>
      <nav aria-label="Dashboard" className="mt-6 flex flex-col gap-1">
        {NAVIGATION.map((item) => (
          <NavLink
            key={item.to}
            to={item.to}
            end={item.end}
            onClick={() => setIsMenuOpen(false)}
            className={({ isActive }) =>
              cn(
                'rounded-md px-3 py-2 text-sm font-medium',
                isActive ? 'bg-blue-50 text-blue-900' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
              )
            }
          >
            {item.label}
          </NavLink>
        ))}
      </nav>
      <div className="mt-auto border-t border-slate-200 pt-4 text-sm">
        <div className="mb-3">
          <ThemeToggle value={preference} onChange={setPreference} />
        </div>
        <p className="truncate text-slate-600" title={user.data?.email}>
          {user.data?.email}
        </p>
        <Button
          variant="ghost"
          size="sm"
          className="mt-2 -ml-3"
          isPending={signOut.isPending}
          onClick={() => signOut.mutate(undefined, { onSuccess: () => navigate('/login', { replace: true }) })}
        >
          Sign out
        </Button>
        <ApiErrorAlert error={signOut.error} />
      </div>
    </>
  );

  return (
    <div className="min-h-screen md:flex">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        Skip to content
      </a>
      <header className="flex items-center justify-between border-b border-slate-200 bg-white px-4 py-3 md:hidden">
        <span className="font-bold text-blue-800">Tessera</span>
        <Button variant="secondary" size="sm" aria-expanded={isMenuOpen} onClick={() => setIsMenuOpen(!isMenuOpen)}>
          Menu
        </Button>
      </header>
      <aside
        className={cn(
          'flex-col border-r border-slate-200 bg-white p-4 md:sticky md:top-0 md:flex md:h-screen md:w-64 md:shrink-0 md:overflow-y-auto',
          isMenuOpen ? 'flex' : 'hidden',
        )}
      >
        <p className="mb-4 hidden text-lg font-bold tracking-tight text-blue-800 md:block">Tessera</p>
        {sidebar}
      </aside>
      <main id="main" className="min-w-0 flex-1 px-4 py-6 sm:px-8">
        <Outlet context={organization} />
      </main>
    </div>
  );
}
