import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import type { TestServer } from '../harness.js';
import { changedTables, databaseFingerprint, type Fingerprint } from './fingerprint.js';
import { RequestArbitraries, requestArbitrary, type GeneratedRequest } from './generate.js';
import { credentialHeaders, loadDocument, operationsOf, WRITE_METHODS, type Operation } from './openapi.js';
import { worldValue, type World } from './world.js';

/**
 * Drives every operation of openapi.json with generated requests and checks what any answer must
 * hold: never a 5xx; errors in the documented shape (`{error, detail}`, a 422's detail a list of
 * `{loc, msg, type}`); a refused write (4xx) changes nothing in the database.
 */

/** Refused writes that record something by design, and what. */
const REFUSALS_THAT_WRITE: Record<string, string> = {
  'POST /v1/checkouts/client/{client_secret}/confirm':
    'a declined or failed payment attempt is recorded on the checkout, then the buyer gets the error',
  'POST /v1/customer-portal/customers/me/payment-methods':
    'the card is recorded before the processor saves it, and its refusal after, then the customer gets the error',
  'POST /v1/customer-portal/customers/me/payment-methods/{id}/confirm':
    'a failed authentication is recorded on the card, then the customer gets the error',
};

export interface FuzzOptions {
  seed: number;
  /** Requests per operation in each round. */
  runsPerOperation: number;
  /** Rounds over every operation (state built by one round is met by the next). */
  rounds: number;
  /** Operations whose path starts with one of these are left out. */
  skipPaths?: string[];
  /** When given, only operations whose path starts with one of these. */
  onlyPaths?: string[];
  /** Called after each round. */
  progress?: (stats: FuzzStats) => void;
}

export interface FuzzStats {
  operations: number;
  requests: number;
  /** Answers with a status ≥ 500. */
  serverErrors: number;
  byStatus: Record<number, number>;
  /** Answers by status for each operation (`METHOD /path`). */
  byOperation: Record<string, Record<number, number>>;
  problems: string[];
}

function describeRequest(op: Operation, request: GeneratedRequest): string {
  const body =
    request.body.kind === 'json'
      ? JSON.stringify(request.body.value)
      : request.body.kind === 'raw'
        ? `${request.body.contentType} ${JSON.stringify(request.body.text)}`
        : '';
  const url = request.query ? `${request.path}?${request.query}` : request.path;
  const key =
    request.idempotencyKey === undefined ? '' : ` [Idempotency-Key ${JSON.stringify(request.idempotencyKey)}]`;
  return `${op.method} ${url.slice(0, 300)} [${request.credentials}]${key} ${body.slice(0, 400)}`;
}

/** What is wrong with an answer's status and body, if anything. */
export function shapeProblem(status: number, text: string): string | undefined {
  if (status >= 500) return `status ${status}`;
  if (status < 400) return undefined;
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return 'error body is not JSON';
  }
  if (!body || typeof body !== 'object' || typeof body.error !== 'string') return 'error body has no `error` string';
  // Validation errors list their issues; named errors of the reference (a 422 included) carry a sentence.
  if (body.error === 'RequestValidationError') {
    const issues = body.detail;
    const wellFormed =
      Array.isArray(issues) &&
      issues.length > 0 &&
      issues.every(
        (issue: any) =>
          issue &&
          Array.isArray(issue.loc) &&
          issue.loc.every((part: unknown) => typeof part === 'string' || typeof part === 'number') &&
          typeof issue.msg === 'string' &&
          typeof issue.type === 'string',
      );
    if (status !== 422) return 'RequestValidationError is not a 422';
    return wellFormed ? undefined : '422 detail is not a list of {loc, msg, type}';
  }
  // OAuth's own calls answer RFC 6749's `{error, error_description}`.
  if (typeof body.error_description === 'string') return undefined;
  return typeof body.detail === 'string' ? undefined : 'error body has no `detail` string';
}

function injectOptions(op: Operation, request: GeneratedRequest, world: World): InjectOptions {
  const headers: Record<string, string> =
    request.credentials === 'own'
      ? { ...credentialHeaders(op, world) }
      : request.credentials === 'garbage'
        ? { authorization: 'Bearer polar_oat_0000000000000000000000000000000000000000000' }
        : {};
  if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
  const options: InjectOptions = {
    method: op.method,
    url: request.query ? `${request.path}?${request.query}` : request.path,
    headers,
  };
  if (request.body.kind === 'json') {
    headers['content-type'] = 'application/json';
    options.payload = JSON.stringify(request.body.value) ?? 'null';
  } else if (request.body.kind === 'raw') {
    headers['content-type'] = request.body.contentType;
    options.payload = request.body.text;
  }
  return options;
}

export async function runFuzz(server: TestServer, world: World, options: FuzzOptions): Promise<FuzzStats> {
  const document = loadDocument();
  const operations = operationsOf(document).filter(
    (op) =>
      !options.skipPaths?.some((prefix) => op.path.startsWith(prefix)) &&
      (!options.onlyPaths || options.onlyPaths.some((prefix) => op.path.startsWith(prefix))),
  );
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  const { ids } = world;
  const arbitraries = new RequestArbitraries(document, {
    uuids: Object.values(ids).filter((id) => uuid.test(id)),
    named: {
      organization_id: [ids.organization, null],
      customer_id: [world.buyerId, ids.customer],
      external_customer_id: [ids.customerExternalId],
      customer_external_id: [ids.customerExternalId],
      product_id: [ids.product],
      products: [[ids.product]],
      product_price_id: [],
      benefit_id: [ids.benefit],
      benefits: [[ids.benefit], []],
      discount_id: [ids.discount],
      checkout_id: [ids.checkout],
      subscription_id: [ids.subscription],
      order_id: [ids.order],
      custom_field_id: [ids.customField],
      activation_id: [ids.licenseKeyActivation],
      key: [world.licenseKeyValue],
      currency: ['usd'],
      price_currency: ['usd'],
    },
  });
  const stats: FuzzStats = {
    operations: operations.length,
    requests: 0,
    serverErrors: 0,
    byStatus: {},
    byOperation: {},
    problems: [],
  };
  const pool = server.runtime.database.pool;

  // The database as the last refused write left it; reads change nothing, so it stays valid until a
  // write is accepted.
  let baseline: Fingerprint | undefined;
  const execute = async (op: Operation, request: GeneratedRequest) => {
    const write = WRITE_METHODS.has(op.method);
    if (process.env.FUZZ_TRACE) console.log(`→ ${describeRequest(op, request)}`);
    if (write && !baseline) baseline = await databaseFingerprint(pool);
    const before = write ? baseline : undefined;
    let status: number;
    let text: string;
    try {
      const response = await server.inject(injectOptions(op, request, world));
      status = response.statusCode;
      text = response.body;
    } catch (error) {
      stats.requests++;
      stats.problems.push(`${describeRequest(op, request)} → request failed: ${(error as Error).message}`);
      return;
    }
    stats.requests++;
    stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
    const ofOperation = (stats.byOperation[`${op.method} ${op.path}`] ??= {});
    ofOperation[status] = (ofOperation[status] ?? 0) + 1;
    if (status >= 500) stats.serverErrors++;
    const problem = shapeProblem(status, text);
    if (problem) stats.problems.push(`${describeRequest(op, request)} → ${problem}: ${text.slice(0, 300)}`);
    if (!before) return;
    if (status >= 400 && status < 500 && !(`${op.method} ${op.path}` in REFUSALS_THAT_WRITE)) {
      const after = await databaseFingerprint(pool);
      const changed = changedTables(before, after);
      if (changed.length > 0)
        stats.problems.push(`${describeRequest(op, request)} → ${status} but changed ${changed.join(', ')}`);
      baseline = after;
    } else {
      baseline = undefined;
    }
  };

  for (let round = 0; round < options.rounds; round++) {
    for (const [index, op] of operations.entries()) {
      const arbitrary = requestArbitrary(arbitraries, op, (_name, source) => worldValue(world, source));
      await fc.assert(
        fc.asyncProperty(arbitrary, async (request) => {
          await execute(op, request);
        }),
        { seed: options.seed + round * 1000 + index, numRuns: options.runsPerOperation },
      );
    }
    options.progress?.(stats);
  }
  return stats;
}
