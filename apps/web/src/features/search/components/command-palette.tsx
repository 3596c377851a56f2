import * as DialogPrimitive from '@radix-ui/react-dialog';
import type { SearchResult } from '@tessera/sdk';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { cn } from '../../../lib/cn';
import { useSearch } from '../api/search';
import { isPaletteShortcut, movedHighlight, resultPath, TYPE_LABELS } from './search-navigation';

const DEBOUNCE_MS = 200;

function useDebounced(value: string): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return debounced;
}

/**
 * The dashboard's global search (⌘K / Ctrl+K, or the Search button): a modal dialog (focus stays in it,
 * Escape closes it) holding a combobox whose listbox lists what matches by id, email, name, license key
 * or invoice number. Arrow keys, Home and End move the highlight; Enter opens the highlighted result.
 */
export function CommandPalette({ organizationId, basePath }: { organizationId: string; basePath: string }) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (!isPaletteShortcut(event)) return;
      event.preventDefault();
      setOpen((isOpen) => !isOpen);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <DialogPrimitive.Root open={open} onOpenChange={setOpen}>
      <DialogPrimitive.Trigger className="flex w-full items-center justify-between rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-600 hover:bg-slate-50">
        <span>Search…</span>
        <kbd className="rounded border border-slate-300 px-1.5 text-xs text-slate-600" aria-label="Control K">
          Ctrl K
        </kbd>
      </DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className="fixed top-[12vh] left-1/2 z-50 w-[calc(100vw-2rem)] max-w-xl -translate-x-1/2 rounded-lg bg-white shadow-xl"
        >
          <DialogPrimitive.Title className="sr-only">Search</DialogPrimitive.Title>
          <PaletteBody organizationId={organizationId} basePath={basePath} onChosen={() => setOpen(false)} />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

function PaletteBody({
  organizationId,
  basePath,
  onChosen,
}: {
  organizationId: string;
  basePath: string;
  onChosen: () => void;
}) {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [highlight, setHighlight] = useState(-1);
  const query = useDebounced(text.trim()).slice(0, 100);
  const results = useSearch({ query, organization_id: organizationId });
  const items: SearchResult[] = query && results.data ? results.data.items : [];
  const listId = useId();
  const optionId = (index: number) => `${listId}-option-${index}`;

  useEffect(() => setHighlight(items.length ? 0 : -1), [results.data, query, items.length]);

  const choose = (result: SearchResult) => {
    onChosen();
    navigate(resultPath(basePath, result));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      const result = items[highlight];
      if (result) {
        event.preventDefault();
        choose(result);
      }
      return;
    }
    const next = movedHighlight(highlight, items.length, event.key);
    if (next === null) return;
    event.preventDefault();
    setHighlight(next);
  };

  const status = !query
    ? 'Type an id, an email, a name, a license key or an invoice number.'
    : results.isError
      ? 'Search failed. Try again.'
      : results.isPending || results.isFetching
        ? 'Searching…'
        : items.length === 0
          ? `Nothing matches “${query}”.`
          : `${items.length} result${items.length === 1 ? '' : 's'}.`;

  return (
    <div>
      <label htmlFor={`${listId}-input`} className="sr-only">
        Search customers, orders, products, subscriptions and license keys
      </label>
      <input
        id={`${listId}-input`}
        role="combobox"
        aria-expanded={items.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={highlight >= 0 && items[highlight] ? optionId(highlight) : undefined}
        autoComplete="off"
        spellCheck={false}
        maxLength={100}
        placeholder="Search by id, email, name or key…"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        className="block w-full rounded-t-lg border-b border-slate-200 bg-white px-4 py-3 text-base text-slate-900 placeholder:text-slate-500 focus-visible:outline-none"
      />
      <ul id={listId} role="listbox" aria-label="Results" className="max-h-[60vh] overflow-y-auto p-2">
        {items.map((result, index) => (
          <li
            key={`${result.type}:${result.id}`}
            id={optionId(index)}
            role="option"
            aria-selected={index === highlight}
            onMouseMove={() => setHighlight(index)}
            onClick={() => choose(result)}
            className={cn(
              'flex cursor-pointer items-baseline justify-between gap-3 rounded-md px-3 py-2 text-sm',
              index === highlight ? 'bg-blue-50 text-blue-900' : 'text-slate-800',
            )}
          >
            <span className="min-w-0">
              <span className="block truncate font-medium">{result.title}</span>
              {result.description ? <span className="block truncate text-slate-600">{result.description}</span> : null}
            </span>
            <span className="shrink-0 text-xs font-medium text-slate-600">{TYPE_LABELS[result.type]}</span>
          </li>
        ))}
      </ul>
      <p role="status" className="border-t border-slate-200 px-4 py-2 text-xs text-slate-600">
        {status}
      </p>
    </div>
  );
}
