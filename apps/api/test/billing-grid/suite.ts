import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness.js';
import { cellName, selectedCells } from './cells.js';
import { reportGrid, runGridCell, type CellResult } from './runner.js';

/**
 * The grid's cells for one test file: the selected cells, or one of `shards` parts of them for machines
 * where vitest runs several workers, on one server (one organization per cell, so cells are independent
 * and run a few at a time). The cell count and a table of the failures are printed at the end.
 */
export function defineGridSuite(shard: number, shards: number): void {
  const cells = selectedCells().filter((_, i) => i % shards === shard);
  const results: CellResult[] = [];
  let server: TestServer;
  const started = Date.now();

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    const part = shards > 1 ? `[part ${shard + 1}/${shards}] ` : '';
    console.log(`${part}${reportGrid(results, Date.now() - started)}`);
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
}
