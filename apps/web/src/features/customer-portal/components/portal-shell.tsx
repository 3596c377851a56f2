import type { Organization } from '@tessera/sdk';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { useDocumentBranding } from '../../../components/branding/use-document-branding';

export function portalPath(slug: string, path = ''): string {
  return `/portal/${encodeURIComponent(slug)}${path}`;
}

const NAVIGATION = [
  { to: '', label: 'Overview', end: true },
  { to: '/orders', label: 'Orders' },
  { to: '/subscriptions', label: 'Subscriptions' },
  { to: '/benefits', label: 'Benefits' },
  { to: '/usage', label: 'Usage', isUsage: true },
  { to: '/downloads', label: 'Downloads', isDownloads: true },
  { to: '/payment-methods', label: 'Payment methods' },
  { to: '/profile', label: 'Profile' },
];

export interface PortalShellProps {
  organization: Pick<Organization, 'name' | 'slug' | 'avatar_url'> & Partial<Pick<Organization, 'branding_settings'>>;
  /** Who is signed in, with the way out; absent when there is no session. */
  account?: { email: string; onSignOut(): void };
  /** The customer has meters: the Usage page is in the navigation. */
  hasUsage?: boolean;
  /** The customer has files to download: the Downloads page is in the navigation. */
  hasDownloads?: boolean;
  children: ReactNode;
}

function OrganizationMark({ organization }: { organization: PortalShellProps['organization'] }) {
  if (organization.avatar_url && (organization.branding_settings?.show_logo ?? true))
    return <img src={organization.avatar_url} alt="" className="size-9 shrink-0 rounded-full object-cover" />;
  return (
    <span
      aria-hidden
      className="flex size-9 shrink-0 items-center justify-center rounded-full bg-blue-100 text-sm font-semibold text-blue-900"
    >
      {organization.name.trim().charAt(0).toUpperCase()}
    </span>
  );
}

/** The frame of the customer portal: the seller on top, the sections, and the customer's way out. */
export function PortalShell({
  organization,
  account,
  hasUsage = false,
  hasDownloads = false,
  children,
}: PortalShellProps) {
  useDocumentBranding(organization.branding_settings);
  const navigation = NAVIGATION.filter((item) => (hasUsage || !item.isUsage) && (hasDownloads || !item.isDownloads));
  return (
    <div className="min-h-screen bg-slate-50">
      <title>{`Customer portal · ${organization.name}`}</title>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-3 px-4 py-4 sm:px-6">
          <div className="flex min-w-0 items-center gap-3">
            <OrganizationMark organization={organization} />
            <div className="min-w-0">
              <p className="truncate text-base font-semibold text-slate-900">{organization.name}</p>
              <p className="text-xs text-slate-600">Customer portal</p>
            </div>
          </div>
          {account && (
            <div className="flex min-w-0 items-center gap-2 text-sm">
              <span className="truncate text-slate-600" title={account.email}>
                {account.email}
              </span>
              <Button variant="secondary" size="sm" onClick={account.onSignOut}>
                Sign out
              </Button>
            </div>
          )}
        </div>
        {account && (
          <nav aria-label="Customer portal" className="mx-auto max-w-5xl px-2 sm:px-4">
            {/* Wraps onto a second line on a phone: every section stays in sight (none scrolled away). */}
            <ul className="flex flex-wrap gap-x-1">
              {navigation.map((item) => (
                <li key={item.label}>
                  <NavLink
                    to={portalPath(organization.slug, item.to)}
                    end={item.end}
                    className={({ isActive }) =>
                      cn(
                        'inline-block border-b-2 px-3 py-2.5 text-sm font-medium whitespace-nowrap',
                        isActive
                          ? 'border-blue-700 text-blue-900'
                          : 'border-transparent text-slate-700 hover:border-slate-300 hover:text-slate-900',
                      )
                    }
                  >
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </header>
      <main id="main" className="mx-auto max-w-5xl px-4 py-6 sm:px-6 sm:py-8">
        {children}
      </main>
    </div>
  );
}
