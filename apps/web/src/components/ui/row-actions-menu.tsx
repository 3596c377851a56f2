import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Link } from 'react-router';
import { cn } from '../../lib/cn';

/** One entry of a row's menu: a link (`to`) or an action (`onSelect`); `danger` for what removes or hides. */
export type RowAction =
  { label: string; to: string; danger?: false } | { label: string; onSelect(): void; danger?: boolean };

export interface RowActionsMenuProps {
  /** Names the trigger for screen readers, e.g. "Actions for Pro plan". */
  label: string;
  actions: readonly RowAction[];
}

const ITEM =
  'block w-full cursor-default rounded px-2 py-1.5 text-left text-sm outline-none select-none data-[highlighted]:bg-blue-50';

/**
 * The actions of a table row behind one "⋯" button, so a row shows no red button of its own. Not modal:
 * a modal menu hides the page with aria-hidden while other controls stay focusable.
 */
export function RowActionsMenu({ label, actions }: RowActionsMenuProps) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label={label}
        className="inline-flex h-8 w-9 items-center justify-center rounded-md border border-slate-300 bg-white text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
      >
        <span aria-hidden>⋯</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-44 rounded-md border border-slate-200 bg-white p-1 shadow-lg"
        >
          {actions.map((action) =>
            'to' in action ? (
              <DropdownMenu.Item key={action.label} asChild>
                <Link to={action.to} className={cn(ITEM, 'text-slate-900')}>
                  {action.label}
                </Link>
              </DropdownMenu.Item>
            ) : (
              <DropdownMenu.Item
                key={action.label}
                onSelect={action.onSelect}
                className={cn(ITEM, action.danger ? 'text-red-800 data-[highlighted]:bg-red-50' : 'text-slate-900')}
              >
                {action.label}
              </DropdownMenu.Item>
            ),
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
