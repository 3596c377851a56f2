import { defineGridSuite } from './suite.js';

/**
 * The billing scenario grid: every selected cell is run through the public API and compared with the
 * reference model. `BILLING_GRID=full` (npm run test:billing) runs the full grid; by default a
 * deterministic sample. (Vitest gives a 2-core machine one worker, so the grid stays one file.)
 */
defineGridSuite(0, 1);
