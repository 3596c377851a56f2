import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { Organization } from '@tessera/sdk';
import { Link } from 'react-router';

export interface OrganizationSwitcherProps {
  current: Organization;
  organizations: readonly Organization[];
}

/** The current organization; opens a menu of the user's others (each opens its dashboard) and creating one. */
export function OrganizationSwitcher({ current, organizations }: OrganizationSwitcherProps) {
  return (
    // Not modal: a modal menu hides the rest of the page with aria-hidden while its links stay focusable.
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label={`Organization: ${current.name}. Switch organization`}
        className="flex w-full items-center justify-between gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-left text-sm font-medium text-slate-900 hover:bg-slate-50"
      >
        <span className="truncate">{current.name}</span>
        <span aria-hidden>▾</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={4}
          className="z-50 min-w-56 rounded-md border border-slate-200 bg-white p-1 shadow-lg"
        >
          <DropdownMenu.Label className="px-2 py-1 text-xs font-semibold text-slate-600 uppercase">
            Organizations
          </DropdownMenu.Label>
          {organizations.map((organization) => (
            <DropdownMenu.Item key={organization.id} asChild>
              <Link
                to={`/dashboard/${organization.slug}`}
                className="flex items-center justify-between gap-3 rounded px-2 py-1.5 text-sm text-slate-900 outline-none data-[highlighted]:bg-blue-50"
                aria-current={organization.id === current.id ? 'true' : undefined}
              >
                <span className="truncate">{organization.name}</span>
                {organization.id === current.id && (
                  <>
                    <span aria-hidden className="text-blue-800">
                      ✓
                    </span>
                    <span className="sr-only"> (current)</span>
                  </>
                )}
              </Link>
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
          <DropdownMenu.Item asChild>
            <Link
              to="/dashboard/new"
              className="block rounded px-2 py-1.5 text-sm text-blue-800 outline-none data-[highlighted]:bg-blue-50"
            >
              Create organization
            </Link>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
