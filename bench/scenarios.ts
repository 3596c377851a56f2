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
  /** Another organization with its own full-scope token (`tessera org create`), for `setup`. */
  createOrganization(): Promise<{ organizationId: string; token: string }>;
  /** The number of concurrent connections of the run. */
  connections: number;
}

/**
 * One request of a multi-step scenario. Each connection runs the steps in order, again and again;
 * `state` belongs to the connection, so a step can use what an earlier one captured (a client secret).
 */
export interface Step {
  method: Method;
  path(ctx: BenchContext, state: Record<string, string>): string;
  headers?(ctx: BenchContext, state: Record<string, string>): Record<string, string>;
  body?(ctx: BenchContext, seq: number, state: Record<string, string>): unknown;
  /** Reads what later steps need from this step's JSON answer. */
  capture?(response: unknown, state: Record<string, string>): void;
}

export interface Scenario {
  name: string;
  /** A multi-step scenario (method, path and body of the scenario itself are then unused). */
  steps?: Step[];
  method: Method;
  path(ctx: BenchContext): string;
  headers?(ctx: BenchContext): Record<string, string>;
  body?(ctx: BenchContext, seq: number): unknown;
  /** Creates what the scenario needs (e.g. a product to fetch) before its warm-up; the result becomes `ctx.data`. */
  setup?(ctx: BenchContext): Promise<Record<string, string>>;
}

/** Hands out organizations to connections in turn (organizations.update). */
let nextConnection = 0;

export const bearer = (ctx: BenchContext): Record<string, string> => ({ authorization: `Bearer ${ctx.token}` });

/** A 1×1 PNG: product media the files API accepts. */
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Uploads one product image through the files API (create, PUT its one part, complete); answers its id. */
async function uploadProductMedia(ctx: BenchContext, name: string): Promise<string> {
  const file = (await ctx.request('POST', '/v1/files/', {
    name,
    mime_type: 'image/png',
    size: PIXEL_PNG.length,
    service: 'product_media',
    upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: PIXEL_PNG.length }] },
  })) as {
    id: string;
    upload: { id: string; path: string; parts: { number: number; url: string; headers: Record<string, string> }[] };
  };
  const part = file.upload.parts[0]!;
  const put = await fetch(part.url, { method: 'PUT', headers: part.headers, body: PIXEL_PNG });
  if (!put.ok) throw new Error(`PUT part of ${name}: ${put.status} ${await put.text()}`);
  await ctx.request('POST', `/v1/files/${file.id}/uploaded`, {
    id: file.upload.id,
    path: file.upload.path,
    parts: [{ number: 1, checksum_etag: put.headers.get('etag'), checksum_sha256_base64: null }],
  });
  return file.id;
}

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
    // Each connection renames its own organization (with its own token): the write path without waiting
    // for another connection's row lock.
    name: 'organizations.update',
    method: 'PATCH',
    path: () => '',
    setup: async (ctx) => {
      const data: Record<string, string> = {};
      for (let i = 0; i < ctx.connections; i++) {
        const { organizationId, token } = await ctx.createOrganization();
        data[`organization${i}`] = organizationId;
        data[`token${i}`] = token;
      }
      return data;
    },
    steps: [
      {
        method: 'PATCH',
        path: (ctx, state) => {
          // A connection's first request picks the next free organization; it keeps it from then on.
          state.index ??= String(nextConnection++ % ctx.connections);
          return `/v1/organizations/${ctx.data[`organization${state.index}`]}`;
        },
        headers: (ctx, state) => ({ authorization: `Bearer ${ctx.data[`token${state.index}`]}` }),
        body: (_ctx, seq) => ({ name: `Bench ${seq}` }),
      },
    ],
  },
  {
    // Every connection renames the same organization: each waits for the row lock of the one before.
    name: 'organizations.update.one_row',
    method: 'PATCH',
    path: (ctx) => `/v1/organizations/${ctx.organizationId}`,
    headers: bearer,
    body: (_ctx, seq) => ({ name: `Bench ${seq}` }),
  },
  {
    // A page of 10 full products: each with a price, two benefits and an image.
    name: 'products.list',
    method: 'GET',
    path: (ctx) => `/v1/products/?limit=10&organization_id=${ctx.organizationId}`,
    headers: bearer,
    setup: async (ctx) => {
      const benefits = [];
      for (const description of ['Bench license', 'Bench notes']) {
        const benefit = (await ctx.request('POST', '/v1/benefits/', {
          type: 'custom',
          description,
          properties: { note: 'Thanks for buying.' },
        })) as { id: string };
        benefits.push(benefit.id);
      }
      for (let i = 1; i <= 10; i++) {
        const media = await uploadProductMedia(ctx, `bench-${i}.png`);
        const product = (await ctx.request('POST', '/v1/products/', {
          name: `Bench product ${i}`,
          description: 'A product of the products.list scenario.',
          recurring_interval: 'month',
          prices: [{ amount_type: 'fixed', price_amount: 1000 + i, price_currency: 'usd' }],
          medias: [media],
        })) as { id: string };
        await ctx.request('POST', `/v1/products/${product.id}/benefits`, { benefits });
      }
      return {};
    },
  },
  {
    name: 'webhooks.endpoints.list',
    method: 'GET',
    path: () => '/v1/webhooks/endpoints?limit=10',
    headers: bearer,
    setup: async (ctx) => {
      const endpoint = (await ctx.request('POST', '/v1/webhooks/endpoints', {
        // Never called (no event type). Production mode takes https only, and loopback only because the
        // bench allows it (WEBHOOK_ALLOWED_NETWORKS).
        url: 'https://127.0.0.1:9/bench',
        format: 'raw',
        secret: 'whsec_bench',
        events: [],
      })) as { id: string };
      return { endpointId: endpoint.id };
    },
  },
  {
    // A checkout per request: product and price lookups, tax, one insert with its products, checkout.created.
    name: 'checkouts.create',
    method: 'POST',
    path: () => '/v1/checkouts/',
    headers: bearer,
    setup: async (ctx) => {
      const product = (await ctx.request('POST', '/v1/products/', {
        name: 'Bench checkout product',
        recurring_interval: null,
        prices: [{ amount_type: 'fixed', price_amount: 1000 }],
      })) as { id: string };
      return { productId: product.id };
    },
    body: (ctx, seq) => ({ products: [ctx.data.productId], customer_email: `bench${seq}@example.com` }),
  },
  {
    // The buyer's form updates: row lock, rules, tax, checkout.updated (no credentials).
    name: 'checkouts.client_update',
    method: 'PATCH',
    path: (ctx) => `/v1/checkouts/client/${ctx.data.clientSecret}`,
    setup: async (ctx) => {
      const product = (await ctx.request('POST', '/v1/products/', {
        name: 'Bench checkout product',
        recurring_interval: null,
        prices: [{ amount_type: 'fixed', price_amount: 1000 }],
      })) as { id: string };
      const checkout = (await ctx.request('POST', '/v1/checkouts/', { products: [product.id] })) as {
        client_secret: string;
      };
      return { clientSecret: checkout.client_secret };
    },
    body: (_ctx, seq) => ({
      customer_name: `Buyer ${seq}`,
      customer_email: `buyer${seq}@example.com`,
      customer_billing_address: { country: 'FR' },
    }),
  },
  {
    // A whole purchase per connection loop: seller creates the checkout, the buyer fills it in, the card
    // form gets a confirmation token from the simulated processor, confirm charges and creates the order
    // and payment. Four requests per purchase; requests/s counts each of them.
    name: 'checkouts.purchase (4 requests)',
    method: 'POST',
    path: () => '/v1/checkouts/',
    setup: async (ctx) => {
      const product = (await ctx.request('POST', '/v1/products/', {
        name: 'Bench purchase product',
        recurring_interval: null,
        prices: [{ amount_type: 'fixed', price_amount: 1500 }],
      })) as { id: string };
      return { productId: product.id };
    },
    steps: [
      {
        method: 'POST',
        path: () => '/v1/checkouts/',
        headers: bearer,
        body: (ctx) => ({ products: [ctx.data.productId] }),
        capture: (response, state) => {
          state.clientSecret = (response as { client_secret: string }).client_secret;
        },
      },
      {
        method: 'PATCH',
        path: (_ctx, state) => `/v1/checkouts/client/${state.clientSecret}`,
        body: (_ctx, seq) => ({
          customer_email: `purchase${seq}@example.com`,
          customer_name: `Buyer ${seq}`,
          customer_billing_address: { country: 'FR' },
        }),
      },
      {
        method: 'POST',
        path: () => '/simulated-processor/confirmation-tokens',
        body: () => ({ card: { number: '4242424242424242', exp_month: 12, exp_year: 2099, cvc: '123' } }),
        capture: (response, state) => {
          state.tokenId = (response as { id: string }).id;
        },
      },
      {
        method: 'POST',
        path: (_ctx, state) => `/v1/checkouts/client/${state.clientSecret}/confirm`,
        body: (_ctx, _seq, state) => ({ confirmation_token_id: state.tokenId }),
      },
    ],
  },
];
