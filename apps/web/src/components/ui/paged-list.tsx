import { useState, type ReactNode } from 'react';
import { ApiErrorAlert } from './alert';
import { Loading } from './spinner';
import { Pagination } from './table';

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
  loadingLabel: string;
  /** Shown when the page has no items: say what the list is for, or that nothing matches the filters. */
  empty: ReactNode;
  page: number;
  onPageChange(page: number): void;
  /** The items of the page, usually as a `Table`. */
  children(items: T[]): ReactNode;
}

/** The states every list goes through: loading, an error in words, empty, or the page with its pager. */
export function PagedList<T>({ query, loadingLabel, empty, page, onPageChange, children }: PagedListProps<T>) {
  if (query.isPending) return <Loading label={loadingLabel} />;
  if (query.isError || !query.data) return <ApiErrorAlert error={query.error} />;
  if (query.data.items.length === 0) return <>{empty}</>;
  return (
    <>
      {children(query.data.items)}
      <Pagination
        page={page}
        maxPage={query.data.pagination.max_page}
        totalCount={query.data.pagination.total_count}
        onPageChange={onPageChange}
      />
    </>
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
