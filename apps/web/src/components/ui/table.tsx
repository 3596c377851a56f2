import type { ReactNode, ThHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';
import { Button } from './button';

export function Table({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table aria-label={label} className="w-full text-left text-sm">
        {children}
      </table>
    </div>
  );
}

export function TableHead({ children }: { children: ReactNode }) {
  return (
    <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-700 uppercase">
      <tr>{children}</tr>
    </thead>
  );
}

export function Th({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={cn('px-4 py-3', className)} {...props} />;
}

export function Td({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn('px-4 py-3 align-middle text-slate-800', className)} {...props} />;
}

export function Tr({ children }: { children: ReactNode }) {
  return <tr className="border-b border-slate-100 last:border-0 hover:bg-slate-50">{children}</tr>;
}

/** A sorting value as the API takes it: `name` ascending, `-name` descending. */
export type Sorting = string;

export interface SortHeaderProps {
  label: string;
  field: string;
  sorting: Sorting;
  onSortingChange(sorting: Sorting): void;
}

/** A column header that sorts by its field; the button says the order it will apply. */
export function SortHeader({ label, field, sorting, onSortingChange }: SortHeaderProps) {
  const current = sorting === field ? 'ascending' : sorting === `-${field}` ? 'descending' : 'none';
  const next = current === 'ascending' ? `-${field}` : field;
  return (
    <th scope="col" aria-sort={current} className="px-4 py-3">
      <button
        type="button"
        onClick={() => onSortingChange(next)}
        className="inline-flex items-center gap-1 rounded font-semibold tracking-wide uppercase hover:text-slate-900"
      >
        {label}
        <span aria-hidden>{current === 'ascending' ? '↑' : current === 'descending' ? '↓' : '↕'}</span>
        <span className="sr-only">, sort {current === 'ascending' ? 'descending' : 'ascending'}</span>
      </button>
    </th>
  );
}

export interface PaginationProps {
  page: number;
  maxPage: number;
  totalCount: number;
  onPageChange(page: number): void;
}

export function Pagination({ page, maxPage, totalCount, onPageChange }: PaginationProps) {
  return (
    <nav aria-label="Pagination" className="mt-3 flex items-center justify-between gap-2 text-sm text-slate-700">
      <p>
        {totalCount} {totalCount === 1 ? 'result' : 'results'} · page {Math.min(page, Math.max(maxPage, 1))} of{' '}
        {Math.max(maxPage, 1)}
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
          Previous page
        </Button>
        <Button variant="secondary" size="sm" disabled={page >= maxPage} onClick={() => onPageChange(page + 1)}>
          Next page
        </Button>
      </div>
    </nav>
  );
}
