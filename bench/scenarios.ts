/**
 * What `npm run bench` measures. To benchmark another endpoint, add one entry to `scenarios`.
 *
 * `path` and `headers` are evaluated once per scenario; `body` once per request (with a running
 * sequence number, for unique values). A body is sent as JSON with `content-type: application/json`.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface BenchContext {
  /** The server's base URL, e.g. `http://127.0.0.1:41234`. */
  baseUrl: string;
  /** The organization created for this run (`tessera org create`). */
  organizationId: string;
  /** Its organization access token, with every grantable scope. */
  token: string;
  /** Values returned by the scenario's own `setup` (empty without one). */
  data: Record<string, string>;
  /** A JSON request to the server for `setup`; throws unless the response is 2xx. */
  request(method: Method, path: string, body?: unknown): Promise<unknown>;
}

export interface Scenario {
  name: string;
  method: Method;
  path(ctx: BenchContext): string;
  headers?(ctx: BenchContext): Record<string, string>;
  body?(ctx: BenchContext, seq: number): unknown;
  /** Creates what the scenario needs (e.g. a product to fetch) before its warm-up; the result becomes `ctx.data`. */
  setup?(ctx: BenchContext): Promise<Record<string, string>>;
}

export const bearer = (ctx: BenchContext): Record<string, string> => ({ authorization: `Bearer ${ctx.token}` });

/**
 * Measured first, in the same run: every scenario's requests/s is reported as a ratio of these.
 * `constant` is the HTTP stack alone; `select1` adds one database round trip through the pool.
 * Both routes exist only when the server runs with `TESSERA_BENCH_ROUTES=1`.
 */
export const baselines: Scenario[] = [
  { name: 'constant', method: 'GET', path: () => '/__bench/constant' },
  { name: 'select1', method: 'GET', path: () => '/__bench/select1' },
];

export const scenarios: Scenario[] = [
  {
    name: 'organizations.get',
    method: 'GET',
    path: (ctx) => `/v1/organizations/${ctx.organizationId}`,
    headers: bearer,
  },
  {
    name: 'organizations.list',
    method: 'GET',
    path: () => '/v1/organizations/?limit=10',
    headers: bearer,
  },
  {
    name: 'organizations.update',
    method: 'PATCH',
    path: (ctx) => `/v1/organizations/${ctx.organizationId}`,
    headers: bearer,
    body: (_ctx, seq) => ({ name: `Bench ${seq}` }),
  },
];
