import type { TestServer } from '../harness.js';
import { cellName, scenarioOf, type Cell } from './cells.js';
import { compare, failureTable, type Mismatch } from './check.js';
import { runScenario } from './driver.js';
import { expectedOutcome } from './model.js';

export interface CellResult {
  cell: string;
  mismatches: Mismatch[];
  /** The first mismatches in one line each, for the test's own failure message. */
  summary: string;
  ms: number;
}

/** One cell: the model's expectation, the run through the API, and the comparison. */
export async function runGridCell(server: TestServer, cell: Cell): Promise<CellResult> {
  const started = Date.now();
  const scenario = scenarioOf(cell);
  const expected = expectedOutcome(scenario);
  let mismatches: Mismatch[];
  try {
    const observed = await runScenario(server, scenario, expected.dueTimes);
    mismatches = compare(expected, observed);
  } catch (error) {
    mismatches = [{ field: 'run', expected: 'completes', actual: (error as Error).message }];
  }
  const summary = mismatches
    .slice(0, 8)
    .map((m) => `${m.field}: expected ${m.expected}, got ${m.actual}`)
    .join('\n');
  return { cell: cellName(cell), mismatches, summary, ms: Date.now() - started };
}

/** The printed report: cell count, failing cells by field, then every failure as a row. */
export function reportGrid(results: CellResult[], elapsedMs: number): string {
  const failing = results.filter((result) => result.mismatches.length > 0);
  const byField = new Map<string, number>();
  for (const result of failing) {
    const fields = new Set(result.mismatches.map((m) => m.field.replace(/\[\d+\]/, '[]')));
    for (const field of fields) byField.set(field, (byField.get(field) ?? 0) + 1);
  }
  const rows = failing.flatMap((result) => result.mismatches.map((mismatch) => ({ cell: result.cell, mismatch })));
  const slowest = Math.max(0, ...results.map((r) => r.ms));
  return [
    `billing grid: ${results.length} cells run, ${results.length - failing.length} passed, ${failing.length} failed ` +
      `in ${(elapsedMs / 1000).toFixed(1)} s (slowest cell ${(slowest / 1000).toFixed(1)} s)`,
    ...(failing.length > 0
      ? [
          'failing cells by field:',
          ...[...byField.entries()]
            .sort((a, b) => b[1] - a[1])
            .map(([field, n]) => `  ${String(n).padStart(5)}  ${field}`),
          failureTable(rows),
        ]
      : []),
  ].join('\n');
}
