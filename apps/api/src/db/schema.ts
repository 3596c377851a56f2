import type { FoundationTables } from './tables/foundation.js';

/**
 * Row types of every table, one file per module under `tables/`, each in step with its migration.
 * A module adds its tables file here.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- composed from module table sets
export interface DB extends FoundationTables {}
