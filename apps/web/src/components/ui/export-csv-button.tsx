import { useState } from 'react';
import { rowsToCsv, type CsvColumn } from '../../lib/csv';
import { ApiErrorAlert } from './alert';
import { Button } from './button';
import type { ListPage } from './paged-list';

export interface ExportCsvButtonProps<T> {
  /** The file's name without extension, e.g. "customers". */
  filename: string;
  /** One page of the list as the API answers it (100 items a page is the API's largest). */
  fetchPage(page: number): Promise<ListPage<T>>;
  columns: readonly CsvColumn<T>[];
}

/** Pages are read one after the other; past this many items the export stops (the button says so). */
const MAX_ITEMS = 10_000;

/**
 * "Export CSV": reads every page of the list from the API (the filters of the page are not applied:
 * the whole list), then saves it as a CSV file. A failed page says why and saves nothing.
 */
export function ExportCsvButton<T>({ filename, fetchPage, columns }: ExportCsvButtonProps<T>) {
  const [state, setState] = useState<{ pending: boolean; error: unknown; note: string | null }>({
    pending: false,
    error: null,
    note: null,
  });

  async function exportAll() {
    setState({ pending: true, error: null, note: null });
    try {
      const rows: T[] = [];
      let truncated = false;
      for (let page = 1; ; page += 1) {
        const answer = await fetchPage(page);
        rows.push(...answer.items);
        if (page >= answer.pagination.max_page || answer.items.length === 0) break;
        if (rows.length >= MAX_ITEMS) {
          truncated = true;
          break;
        }
      }
      const blob = new Blob([rowsToCsv(columns, rows)], { type: 'text/csv;charset=utf-8' });
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `${filename}-${new Date().toISOString().slice(0, 10)}.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 0);
      setState({
        pending: false,
        error: null,
        note: truncated ? `Exported the first ${rows.length} rows.` : `Exported ${rows.length} rows.`,
      });
    } catch (error) {
      setState({ pending: false, error, note: null });
    }
  }

  return (
    <div className="flex flex-col items-end gap-1">
      <Button variant="secondary" isPending={state.pending} onClick={() => void exportAll()}>
        Export CSV
      </Button>
      <p role="status" className="text-xs text-slate-600">
        {state.note}
      </p>
      {state.error ? <ApiErrorAlert error={state.error} /> : null}
    </div>
  );
}
