import { useState, type ReactNode } from 'react';
import { ApiErrorAlert } from './alert';
import { Field } from './field';
import { Input } from './input';
import { Loading } from './spinner';
import { DataTable, Pagination, type DataTableProps } from './table';

/** A page of a list as the API answers it. */
export interface ListPage<T> {
  items: T[];
  pagination: { total_count: number; max_page: number };
}

/** What a list needs of its query (a TanStack Query result fits). */
export interface ListQuery<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: ListPage<T> | undefined;
}

export interface PagedListProps<T> {
  query: ListQuery<T>;
  /** What the list holds, e.g. "Orders": names its pager. */
  label?: string;
  /** What is loading, e.g. "Loading orders…" (plain "Loading…" when left out). */
  loadingLabel?: string;
  /** Shown when the first page has no items: say what the list is for, or that nothing matches the filters. */
  empty: ReactNode;
  page: number;
  onPageChange(page: number): void;
  /** The items of the page, usually as a `Table`. */
  children(items: T[]): ReactNode;
}

/**
 * The states every list goes through: loading, an error in words, empty, or the page with its pager.
 * An empty page past the first (its last rows were just deleted) keeps the pager: it is the way back.
 */
export function PagedList<T>({ query, label, loadingLabel, empty, page, onPageChange, children }: PagedListProps<T>) {
  if (query.isPending) return <Loading label={loadingLabel} />;
  if (query.isError || !query.data) return <ApiErrorAlert error={query.error} />;
  if (query.data.items.length === 0 && page === 1) return <>{empty}</>;
  return (
    <>
      {children(query.data.items)}
      <Pagination
        label={label}
        page={page}
        maxPage={query.data.pagination.max_page}
        totalCount={query.data.pagination.total_count}
        onPageChange={onPageChange}
      />
    </>
  );
}

export type PagedTableProps<T extends { id: string }, S extends string = string> = Omit<PagedListProps<T>, 'children'> &
  Omit<DataTableProps<T, S>, 'rows'>;

/** A paged list shown as a table: the list says its states' wording and its columns. */
export function PagedTable<T extends { id: string }, S extends string = string>({
  query,
  loadingLabel,
  empty,
  page,
  onPageChange,
  ...table
}: PagedTableProps<T, S>) {
  return (
    <PagedList
      query={query}
      label={table.label}
      loadingLabel={loadingLabel}
      empty={empty}
      page={page}
      onPageChange={onPageChange}
    >
      {(rows) => <DataTable rows={rows} {...table} />}
    </PagedList>
  );
}

export interface SearchFieldProps {
  label: string;
  placeholder: string;
  value: string;
  onChange(value: string): void;
}

/** The search box above a list (key its `usePage` on the search, so a new search starts on page 1). */
export function SearchField({ label, placeholder, value, onChange }: SearchFieldProps) {
  return (
    <Field label={label} className="w-full sm:w-72">
      <Input type="search" value={value} placeholder={placeholder} onChange={(event) => onChange(event.target.value)} />
    </Field>
  );
}

/**
 * The page number of a list, back to 1 whenever `resetKey` changes (a filter or the sorting), so a
 * narrower result never opens on a page past its end.
 */
export function usePage(resetKey: string): [number, (page: number) => void] {
  const [state, setState] = useState({ key: resetKey, page: 1 });
  const page = state.key === resetKey ? state.page : 1;
  return [page, (next: number) => setState({ key: resetKey, page: next })];
}
