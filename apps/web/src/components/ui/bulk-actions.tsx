import { useState } from 'react';
import { describeError } from '../../lib/api-error';
import { describeBulkOutcome, runBulk, togglePage, type BulkOutcome } from '../../lib/bulk';
import { Alert } from './alert';
import { Button } from './button';
import { Dialog, DialogActions } from './dialog';

/** The rows chosen for a bulk action, kept across the pages of the list. */
export function useRowSelection<T extends { id: string }>() {
  const [selected, setSelected] = useState<Map<string, T>>(new Map());
  return {
    items: [...selected.values()],
    has: (id: string) => selected.has(id),
    toggle: (item: T) =>
      setSelected((current) => {
        const next = new Map(current);
        if (next.has(item.id)) next.delete(item.id);
        else next.set(item.id, item);
        return next;
      }),
    togglePage: (rows: readonly T[]) =>
      setSelected((current) => {
        const ids = togglePage(
          new Set(current.keys()),
          rows.map((row) => row.id),
        );
        const byId = new Map([...current, ...rows.map((row) => [row.id, row] as const)]);
        return new Map([...ids].map((id) => [id, byId.get(id)!] as const));
      }),
    allSelected: (rows: readonly T[]) => rows.length > 0 && rows.every((row) => selected.has(row.id)),
    clear: () => setSelected(new Map()),
  };
}

/** A row's checkbox, named after the row. */
export function SelectRowCheckbox({ label, checked, onChange }: { label: string; checked: boolean; onChange(): void }) {
  return (
    <input
      type="checkbox"
      aria-label={label}
      checked={checked}
      onChange={onChange}
      className="size-4 rounded border-slate-400 accent-blue-700"
    />
  );
}

export interface BulkActionBarProps<T> {
  /** The selected rows (their names are used in the report of failures). */
  items: T[];
  nameOf(item: T): string;
  noun: { one: string; many: string };
  /** "Archive", "Revoke". */
  verb: string;
  /** "archived", "revoked". */
  done: string;
  /** What the confirmation says will happen. */
  consequence: string;
  /** The list's current page has rows to select. */
  hasPage: boolean;
  allOnPageSelected: boolean;
  onTogglePage(): void;
  onClear(): void;
  action(item: T): Promise<unknown>;
  /** Called once after a run (refresh the list). */
  onFinished(outcome: BulkOutcome<T>): void;
}

/**
 * The bar above a list with selectable rows: select the page, the count selected, the action behind a
 * confirmation, and the report of the last run with the rows that failed and why.
 */
export function BulkActionBar<T>({
  items,
  nameOf,
  noun,
  verb,
  done,
  consequence,
  hasPage,
  allOnPageSelected,
  onTogglePage,
  onClear,
  action,
  onFinished,
}: BulkActionBarProps<T>) {
  const [confirming, setConfirming] = useState(false);
  const [running, setRunning] = useState(false);
  const [report, setReport] = useState<BulkOutcome<T> | null>(null);
  const count = items.length;
  const what = `${count} ${count === 1 ? noun.one : noun.many}`;

  async function run() {
    setConfirming(false);
    setRunning(true);
    const outcome = await runBulk(items, action);
    setRunning(false);
    setReport(outcome);
    onFinished(outcome);
  }

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <Button variant="secondary" size="sm" onClick={onTogglePage} disabled={!hasPage}>
          {allOnPageSelected ? 'Unselect this page' : 'Select this page'}
        </Button>
        <span className="text-slate-700" aria-live="polite">
          {count === 0 ? `No ${noun.many} selected` : `${what} selected`}
        </span>
        {count > 0 && (
          <>
            <Button variant="danger" size="sm" onClick={() => setConfirming(true)} isPending={running}>
              {verb} selected…
            </Button>
            <Button variant="ghost" size="sm" onClick={onClear}>
              Clear selection
            </Button>
          </>
        )}
      </div>
      {report && (
        <Alert
          tone={report.failed.length ? 'error' : 'success'}
          title={describeBulkOutcome({ succeeded: report.succeeded.length, failed: report.failed.length }, noun, done)}
        >
          {report.failed.length > 0 && (
            <ul className="list-disc pl-5">
              {report.failed.map(({ item, error }, index) => (
                <li key={index}>
                  {nameOf(item)}: {describeError(error).message}
                </li>
              ))}
            </ul>
          )}
        </Alert>
      )}
      <Dialog open={confirming} onOpenChange={setConfirming} title={`${verb} ${what}?`} description={consequence}>
        <ul className="max-h-40 list-disc overflow-y-auto pl-5 text-sm text-slate-700">
          {items.map((item, index) => (
            <li key={index}>{nameOf(item)}</li>
          ))}
        </ul>
        <DialogActions>
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => void run()}>
            {verb} {what}
          </Button>
        </DialogActions>
      </Dialog>
    </div>
  );
}
