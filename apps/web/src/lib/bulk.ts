/**
 * A bulk action runs one API call per selected row, one after another (each is its own request, so one
 * refusal does not undo the others), and reports what went through and what did not. Pure apart from
 * the calls it is given.
 */
export interface BulkOutcome<T> {
  succeeded: T[];
  failed: { item: T; error: unknown }[];
}

export async function runBulk<T>(items: readonly T[], action: (item: T) => Promise<unknown>): Promise<BulkOutcome<T>> {
  const outcome: BulkOutcome<T> = { succeeded: [], failed: [] };
  for (const item of items) {
    try {
      await action(item);
      outcome.succeeded.push(item);
    } catch (error) {
      outcome.failed.push({ item, error });
    }
  }
  return outcome;
}

/** "3 products archived." / "2 of 3 license keys revoked; 1 could not be." Pure. */
export function describeBulkOutcome(
  outcome: { succeeded: number; failed: number },
  noun: { one: string; many: string },
  done: string,
): string {
  const total = outcome.succeeded + outcome.failed;
  const word = (count: number) => (count === 1 ? noun.one : noun.many);
  if (outcome.failed === 0) return `${outcome.succeeded} ${word(outcome.succeeded)} ${done}.`;
  if (outcome.succeeded === 0) return `No ${noun.many} ${done}: ${total === 1 ? 'it' : `all ${total}`} failed.`;
  return `${outcome.succeeded} of ${total} ${word(total)} ${done}; ${outcome.failed} could not be.`;
}

/** The selection after toggling every id of a page: all on when any was off, else all off. Pure. */
export function togglePage(selected: ReadonlySet<string>, pageIds: readonly string[]): Set<string> {
  const next = new Set(selected);
  const allOn = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  for (const id of pageIds) {
    if (allOn) next.delete(id);
    else next.add(id);
  }
  return next;
}
