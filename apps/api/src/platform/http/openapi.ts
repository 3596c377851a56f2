import { z } from 'zod/v4';
import { queryDocs } from './query.js';
import { acceptsIdempotencyKey, IDEMPOTENCY_KEY_PARAMETER } from './idempotency.js';
import type { AnyRoute, ErrorName } from './route.js';

/**
 * The OpenAPI 3.1 document, generated from the route definitions (the one source of the contract).
 * Named schemas (`.meta({id})`) become components; request bodies are described as input (defaults
 * optional), responses as output (every key present).
 */
type JsonSchema = Record<string, unknown>;

const ERROR_STATUS: Record<ErrorName, number> = {
  BadRequest: 400,
  PaymentError: 400,
  RefundAmountTooHigh: 400,
  Unauthorized: 401,
  NotPermitted: 403,
  AlreadyActiveSubscriptionError: 403,
  NotOpenCheckout: 403,
  AlreadyCanceledSubscription: 403,
  RefundedAlready: 403,
  ResourceNotFound: 404,
  ResourceAlreadyExists: 409,
  InvoiceAlreadyExists: 409,
  PaymentAlreadyInProgress: 409,
  DisputeNotOpenError: 409,
  ExpiredCheckoutError: 410,
  ResourceUnavailable: 410,
  MissingInvoiceBillingDetails: 422,
  NotPaidOrder: 422,
  OrderNotEligibleForRetry: 422,
  TooManyRequests: 429,
};

const OAUTH2_ERROR: JsonSchema = {
  type: 'object',
  properties: { error: { type: 'string' }, error_description: { type: 'string' } },
  required: ['error'],
};

const OAUTH2_ERROR_NAMES: Record<400 | 401 | 404 | 429, string> = {
  400: 'OAuth2 error (invalid_request, invalid_grant, invalid_scope, invalid_client_metadata, …)',
  401: 'invalid_client or invalid_token',
  404: 'Not found',
  429: 'too_many_requests, with Retry-After',
};

class Components {
  readonly schemas: Record<string, JsonSchema> = {};

  /** Converts a schema, hoisting named sub-schemas into components; returns a $ref or inline schema. */
  add(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const json = z.toJSONSchema(schema, {
      io,
      target: 'draft-2020-12',
      unrepresentable: 'any',
      reused: 'inline',
      override: (context) => {
        const json = context.jsonSchema as JsonSchema;
        // Drop the schema-level `id` keyword zod copies from .meta(); components are keyed by it.
        delete json.id;
        // A named format says it all; zod's generated regex for it only adds noise.
        if (typeof json.format === 'string' && ['date-time', 'uuid', 'email', 'uri'].includes(json.format))
          delete json.pattern;
        if (json.maximum === Number.MAX_SAFE_INTEGER) delete json.maximum;
        if (json.minimum === Number.MIN_SAFE_INTEGER) delete json.minimum;
      },
    }) as JsonSchema;
    return this.hoist(asDocumented(json) as JsonSchema, io);
  }

  private hoist(json: JsonSchema, io: 'input' | 'output'): JsonSchema {
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    delete json.$schema;
    // Compare in component form, so a schema seen before (whose refs were rewritten) matches itself.
    const identity = new Map(Object.keys(defs).map((name) => [name, name]));
    const renames = new Map<string, string>();
    for (const [name, def] of Object.entries(defs))
      renames.set(name, this.store(name, rewriteRefs(def, identity) as JsonSchema, io));
    const renamed = [...renames].filter(([from, to]) => from !== to);
    if (renamed.length > 0) {
      // A schema stored under an alternate name: references within this batch follow it.
      const batch = new Map(renamed);
      for (const target of new Set(renames.values()))
        this.schemas[target] = rewriteRefs(this.schemas[target], batch) as JsonSchema;
      return rewriteRefs(rewriteRefs(json, identity), batch) as JsonSchema;
    }
    return rewriteRefs(json, identity) as JsonSchema;
  }

  private store(name: string, def: JsonSchema, io: 'input' | 'output'): string {
    const existing = this.schemas[name];
    if (!existing || JSON.stringify(existing) === JSON.stringify(def)) {
      this.schemas[name] = def;
      return name;
    }
    // The same named schema reads differently as input (defaults optional) and output.
    const alternate = io === 'input' ? `${name}Input` : `${name}Output`;
    this.schemas[alternate] = def;
    return alternate;
  }

  named(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const id = z.globalRegistry.get(schema)?.id;
    const json = this.add(schema, io);
    if (!id) return json;
    // zod refers to a named root through its own definition: that is the component already stored.
    if (typeof json.$ref === 'string' && Object.keys(json).length === 1) return json;
    const name = this.store(id, json, io);
    return { $ref: `#/components/schemas/${name}` };
  }
}

/** Keywords that describe a value rather than constrain one of its types. */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'deprecated', 'enum', 'const']);

/**
 * The document's own spelling of what zod writes more tersely: a union of primitive types as
 * `anyOf: [{type}, …]` rather than `type: [...]`, a union as `anyOf` whether or not it is discriminated,
 * and a tuple by its `prefixItems` alone. The meaning is the same; the document (and the SDK generated
 * from it) stays as it was.
 */
function asDocumented(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asDocumented);
  if (!value || typeof value !== 'object') return value;
  const node: JsonSchema = {};
  for (const [key, v] of Object.entries(value)) node[key === 'oneOf' ? 'anyOf' : key] = asDocumented(v);
  if (Array.isArray(node.prefixItems) && node.items === false) {
    delete node.items;
    delete node.minItems;
    delete node.maxItems;
  }
  if (Array.isArray(node.type)) {
    // What describes the value stays on it; what constrains a type moves to that type's branch.
    const outer: JsonSchema = {};
    const constraints: JsonSchema = {};
    for (const [key, v] of Object.entries(node)) {
      if (key !== 'type') (ANNOTATIONS.has(key) ? outer : constraints)[key] = v;
    }
    const types = node.type as string[];
    outer.anyOf = types.map((t) => (t === 'null' ? { type: t } : { type: t, ...constraints }));
    return outer;
  }
  return node;
}

function rewriteRefs(value: unknown, renames: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, renames));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const match =
        key === '$ref' && typeof v === 'string' ? /^#\/(?:\$defs|components\/schemas)\/(.+)$/.exec(v) : null;
      if (match) {
        out[key] = `#/components/schemas/${renames.get(match[1]!) ?? match[1]}`;
      } else {
        out[key] = rewriteRefs(v, renames);
      }
    }
    return out;
  }
  return value;
}

function errorResponse(description: string, ref: string) {
  return { description, content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } };
}

export function buildOpenApiDocument(routes: AnyRoute[], info: { version: string; serverUrl?: string }) {
  const components = new Components();
  components.schemas.HTTPValidationError = {
    type: 'object',
    properties: {
      detail: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
            msg: { type: 'string' },
            type: { type: 'string' },
          },
          required: ['loc', 'msg', 'type'],
        },
      },
    },
  };
  components.schemas.NamedError = {
    type: 'object',
    properties: { error: { type: 'string' }, detail: { type: 'string' } },
    required: ['error', 'detail'],
  };

  const paths: Record<string, Record<string, unknown>> = {};
  const sorted = [...routes].filter((r) => !r.internal).sort((a, b) => a.path.localeCompare(b.path));
  for (const route of sorted) {
    const parameters: unknown[] = [];
    for (const [where, schema] of [
      ['path', route.params],
      ['query', route.query],
    ] as const) {
      if (!schema) continue;
      // Query helpers preprocess raw strings; document the values they accept instead.
      const shape = Object.fromEntries(
        Object.entries((schema as z.ZodObject<z.ZodRawShape>).shape).map(([key, value]) => [
          key,
          queryDocs.get(value as z.ZodType) ?? (value as z.ZodType),
        ]),
      );
      const json = components.add(z.object(shape), 'input');
      const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((json.required ?? []) as string[]);
      for (const [name, property] of Object.entries(properties)) {
        if (name === 'metadata' && where === 'query') {
          parameters.push({
            name: 'metadata',
            in: 'query',
            required: false,
            style: 'deepObject',
            explode: true,
            description:
              'Filter by metadata key-value pairs (`metadata[key]=value`); repeated values are OR-ed, keys AND-ed.',
            schema: property,
          });
          continue;
        }
        parameters.push({
          name,
          in: where,
          required: where === 'path' || (required.has(name) && property.default === undefined),
          ...(property.type === 'array' || (property.anyOf as JsonSchema[] | undefined)?.some((s) => s.type === 'array')
            ? { style: 'form', explode: true }
            : {}),
          schema: property,
        });
      }
    }

    if (acceptsIdempotencyKey(route)) parameters.push(IDEMPOTENCY_KEY_PARAMETER);

    const responses: Record<string, unknown> = {};
    if (route.status === 204) {
      responses['204'] = { description: 'No content' };
    } else {
      responses[String(route.status)] = {
        description: 'Successful response',
        content: Object.fromEntries(
          [route.produces ?? 'application/json', ...(route.alsoJson ? ['application/json'] : [])].map((type) => [
            type,
            { schema: route.response ? components.named(route.response, 'output') : {} },
          ]),
        ),
      };
    }
    if (route.accepted) responses['202'] = { description: 'Accepted: being prepared, ask again shortly' };
    const authenticated = !route.auth.optional;
    if (route.oauth2) {
      // OAuth's error body (RFC 6749 §5.2, RFC 7591 §3.2.2), whatever the status, but a 422: the API's
      // validation error of a query read with the contract's schema.
      components.schemas.OAuth2Error ??= OAUTH2_ERROR;
      for (const status of route.oauth2.errors)
        responses[String(status)] =
          status === 422
            ? errorResponse('Validation error', 'HTTPValidationError')
            : errorResponse(OAUTH2_ERROR_NAMES[status], 'OAuth2Error');
    } else {
      if (authenticated) responses['401'] = errorResponse('Missing or invalid credentials', 'NamedError');
      if (authenticated && route.auth.scopes.length > 0)
        responses['403'] = errorResponse('Missing scope or not permitted', 'NamedError');
      for (const name of route.errors ?? []) {
        responses[String(ERROR_STATUS[name])] = errorResponse(name, 'NamedError');
      }
      if (route.params || route.query || route.body)
        responses['422'] = errorResponse('Validation error', 'HTTPValidationError');
    }

    const security: unknown[] = [];
    if (route.auth.subjects.includes('organization')) security.push({ access_token: [] });
    if (route.auth.subjects.includes('user')) security.push({ session_cookie: [] });
    if (route.auth.subjects.includes('customer')) security.push({ customer_session: [] });
    if (route.auth.optional) security.push({});

    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      tags: route.tags,
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { [route.consumes ?? 'application/json']: { schema: components.named(route.body, 'input') } },
            },
          }
        : {}),
      responses,
      security,
      'x-tessera-scopes': route.auth.scopes,
      ...(route.extension ? { 'x-tessera-extension': true } : {}),
    };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Tessera API',
      version: info.version,
      description:
        'Billing and subscription platform. Wire-compatible with the Polar v1 API: amounts in minor units, ' +
        'timestamps in ISO 8601 with offset, lists paged with `page` and `limit`.',
    },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl }] } : {}),
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(components.schemas).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        access_token: {
          type: 'http',
          scheme: 'bearer',
          description: 'An organization access token (`polar_oat_…`) or an OAuth2 access token.',
        },
        session_cookie: { type: 'apiKey', in: 'cookie', name: 'tessera_session', description: 'Dashboard session.' },
        customer_session: {
          type: 'http',
          scheme: 'bearer',
          description: 'A customer session token (`polar_cst_…`) from `POST /v1/customer-sessions/` (customer portal).',
        },
      },
    },
  };
}
