import { fileURLToPath } from 'node:url';

/** Root of the api package; the same from `src/` (tsx) and `dist/` (built). */
export const API_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist/', import.meta.url));
