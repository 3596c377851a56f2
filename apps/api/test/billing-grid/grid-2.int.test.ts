import { defineGridSuite } from './suite.js';

/** The billing scenario grid, second half of the cells (see grid.int.test.ts). */
defineGridSuite(1, 2);
