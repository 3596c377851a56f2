import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness.js';
import { cellName, selectedCells } from './cells.js';
import { runGridCell, reportGrid, type CellResult } from './runner.js';

/**
 * The billing scenario grid: every selected cell is run through the public API on one server (one
 * organization per cell, so cells are independent and run a few at a time) and compared with the
 * reference model. `BILLING_GRID=full` (npm run test:billing) runs the full grid; by default a
 * deterministic sample. The cell count and a table of the failures are printed at the end.
 */
const cells = selectedCells();
const results: CellResult[] = [];
let server: TestServer;
const started = Date.now();

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  console.log(reportGrid(results, Date.now() - started));
  await server?.stop();
});

describe.concurrent(`billing grid (${cells.length} cells)`, () => {
  for (const cell of cells) {
    it(cellName(cell), { timeout: 180_000 }, async () => {
      const result = await runGridCell(server, cell);
      results.push(result);
      if (result.mismatches.length > 0) expect.fail(`${result.mismatches.length} mismatches\n${result.summary}`);
    });
  }
});
