import { defineGridSuite } from './suite.js';

/**
 * The billing scenario grid (first half of the cells; the second is in grid-2.int.test.ts): every
 * selected cell is run through the public API and compared with the reference model.
 * `BILLING_GRID=full` (npm run test:billing) runs the full grid; by default a deterministic sample.
 */
defineGridSuite(0, 2);
