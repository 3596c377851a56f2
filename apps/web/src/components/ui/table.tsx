import { useEffect, useRef, useState, type ReactNode, type ThHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';
import { Button } from './button';

/** Whether a box scrolls sideways, and whether columns remain to its right; follows resizes and scrolling. */
function useSidewaysScroll() {
  const ref = useRef<HTMLDivElement>(null);
  const [state, setState] = useState({ scrolls: false, moreRight: false });
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => {
      const scrolls = box.scrollWidth > box.clientWidth + 1;
      const moreRight = scrolls && box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
      setState((previous) =>
        previous.scrolls === scrolls && previous.moreRight === moreRight ? previous : { scrolls, moreRight },
      );
    };
    measure();
    box.addEventListener('scroll', measure, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(box);
    if (box.firstElementChild) observer?.observe(box.firstElementChild);
    return () => {
      box.removeEventListener('scroll', measure);
      observer?.disconnect();
    };
  }, []);
  return { ref, ...state };
}

/**
 * A table in a box that scrolls sideways when the screen is narrower than its columns (a phone). Then
 * the box says so: a shade on the right edge while columns remain there, a line of text under it, and
 * the box takes keyboard focus so arrow keys scroll it.
 */
export function Table({ label, children }: { label: string; children: ReactNode }) {
  const { ref, scrolls, moreRight } = useSidewaysScroll();
  return (
    <div>
      <div className="relative">
        {/* `relative`: visually hidden text (position: absolute) of cells scrolled out of view stays clipped
            by the scroll box; without it, it is placed against the page and widens the page on a phone. */}
        <div
          ref={ref}
          className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
          {...(scrolls ? { role: 'region', 'aria-label': `${label}, scrolls sideways`, tabIndex: 0 } : {})}
        >
          <table aria-label={label} className="w-full text-left text-sm">
            {children}
          </table>
        </div>
        {moreRight && (
          <div
            aria-hidden
            data-testid="more-columns-shade"
            className="pointer-events-none absolute inset-y-px right-px w-10 rounded-r-lg bg-gradient-to-l from-white to-transparent"
          />
        )}
      </div>
      {scrolls && (
        <p className="mt-1 text-xs text-slate-600">
          {moreRight ? 'More columns to the right: scroll sideways.' : 'Scroll sideways to see every column.'}
        </p>
      )}
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
  className?: string;
}

/** A column header that sorts by its field; the button says the order it will apply. */
export function SortHeader({ label, field, sorting, onSortingChange, className }: SortHeaderProps) {
  const current = sorting === field ? 'ascending' : sorting === `-${field}` ? 'descending' : 'none';
  const next = current === 'ascending' ? `-${field}` : field;
  return (
    <th scope="col" aria-sort={current} className={cn('px-4 py-3', className)}>
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

/** The fields a sorting union sorts by: its values without the `-` of descending order. */
export type SortField<S extends string> = Exclude<S, `-${string}`>;

/** One column of a `DataTable`: its header and what each row shows in it. */
export interface Column<T, S extends string = string> {
  /** The header, unique in its table. */
  header: string;
  /** The header is read by screen readers only (an actions column). */
  hideHeader?: boolean;
  /** The field the API sorts the column by: the header becomes a button that sorts. */
  sortField?: NoInfer<SortField<S>>;
  /** Right-aligns the header and the cells: amounts and actions. */
  align?: 'right';
  /** Classes of the column's cells. */
  className?: string;
  cell(row: T): ReactNode;
}

export interface DataTableProps<T extends { id: string }, S extends string = string> {
  label: string;
  rows: readonly T[];
  /** `false` leaves a column out, for columns shown in some places only. */
  columns: readonly (Column<NoInfer<T>, S> | false)[];
  sorting?: S;
  onSortingChange?(sorting: NoInfer<S>): void;
}

/** A table that says only its columns: a header per column, a row per item, sortable where asked. */
export function DataTable<T extends { id: string }, S extends string = string>({
  label,
  rows,
  columns,
  sorting,
  onSortingChange,
}: DataTableProps<T, S>) {
  const shown = columns.filter((column): column is Column<T, S> => column !== false);
  const alignment = (column: Column<T, S>) => (column.align === 'right' ? 'text-right' : undefined);
  return (
    <Table label={label}>
      <TableHead>
        {shown.map((column) =>
          column.sortField && sorting !== undefined && onSortingChange ? (
            <SortHeader
              key={column.header}
              label={column.header}
              field={column.sortField}
              sorting={sorting}
              className={alignment(column)}
              // SortHeader answers `field` or `-field`: both are values of S for a field of S.
              onSortingChange={(next) => onSortingChange(next as S)}
            />
          ) : (
            <Th key={column.header} className={alignment(column)}>
              {column.hideHeader ? <span className="sr-only">{column.header}</span> : column.header}
            </Th>
          ),
        )}
      </TableHead>
      <tbody>
        {rows.map((row) => (
          <Tr key={row.id}>
            {shown.map((column) => (
              <Td key={column.header} className={cn(alignment(column), column.className)}>
                {column.cell(row)}
              </Td>
            ))}
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}

export interface PaginationProps {
  /** What is paged, e.g. "Orders": names the landmark, so two lists on one page have distinct ones. */
  label?: string;
  page: number;
  maxPage: number;
  totalCount: number;
  onPageChange(page: number): void;
}

export function Pagination({ label, page, maxPage, totalCount, onPageChange }: PaginationProps) {
  return (
    <nav
      aria-label={label ? `${label} pagination` : 'Pagination'}
      className="mt-3 flex items-center justify-between gap-2 text-sm text-slate-700"
    >
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
