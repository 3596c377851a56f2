/**
 * Generates the per-operation code of the SDK from the committed openapi.json:
 *
 *   src/generated/models.ts      type aliases of the components and of each operation's request/response
 *                                (over the openapi-typescript types in schema.ts)
 *   src/generated/zod.ts         zod schemas of the components and of each operation's request
 *   src/generated/operations.ts  one descriptor and one async function per operationId, plus the
 *                                resource-grouped `Tessera` class
 *   REFERENCE.md                 one section per operation and per model
 *
 * Run by `npm run generate -w packages/sdk` (after openapi-typescript), which `npm run openapi` calls.
 * The output depends only on openapi.json, so re-running it on an unchanged document changes nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

type Json = Record<string, unknown>;
type Schema = Json & {
  $ref?: string;
  type?: string | string[];
  format?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  prefixItems?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  propertyNames?: Schema;
  description?: string;
  default?: unknown;
};

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  style?: string;
  explode?: boolean;
  description?: string;
  schema: Schema;
}

interface ResponseObject {
  description?: string;
  content?: Record<string, { schema?: Schema }>;
}

interface OperationObject {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, ResponseObject>;
  security?: Record<string, string[]>[];
  deprecated?: boolean;
  'x-tessera-scopes'?: string[];
}

interface Document {
  paths: Record<string, Record<string, OperationObject>>;
  components: {
    schemas: Record<string, Schema>;
    securitySchemes?: Record<
      string,
      { type: string; scheme?: string; in?: string; name?: string; description?: string }
    >;
  };
  security?: Record<string, string[]>[];
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'] as const;
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
    'yield let static implements interface package private protected public await z S O'
  )
    .split(' ')
    .filter(Boolean),
);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------------------------------------
// Names

function words(value: string): string[] {
  return value
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

function pascal(value: string): string {
  return words(value)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

function camel(value: string): string {
  const name = pascal(value);
  return name[0]!.toLowerCase() + name.slice(1);
}

/** A component name as a TypeScript identifier (kept as is when already valid). */
function typeName(component: string): string {
  const name = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(component) ? component : pascal(component);
  return RESERVED.has(name) ? `${name}Model` : name;
}

function schemaName(component: string): string {
  return `${typeName(component)}Schema`;
}

function propertyKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}

function refName(ref: string): string {
  const match = /^#\/components\/schemas\/(.+)$/.exec(ref);
  if (!match) throw new Error(`Unsupported $ref ${ref}`);
  return decodeURIComponent(match[1]!.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** 'customer-portal.orders:list' → namespaces ['customerPortal', 'orders'], method 'list'. */
function operationPath(operationId: string): { namespaces: string[]; method: string } {
  const segments = operationId.split(/[:./]/).filter(Boolean);
  const method = camel(segments.pop()!);
  return { namespaces: segments.map(camel), method };
}

// ---------------------------------------------------------------------------------------------
// JSON Schema → zod (the subset the document uses)

function withoutNull(members: Schema[]): { rest: Schema[]; nullable: boolean } {
  const rest = members.filter((member) => member.type !== 'null');
  return { rest, nullable: rest.length !== members.length };
}

function literal(value: unknown): string {
  return JSON.stringify(value);
}

function zodOf(schema: Schema | boolean | undefined, indent: string): string {
  if (schema === undefined || schema === true) return 'z.unknown()';
  if (schema === false) return 'z.never()';
  if (schema.$ref) return schemaName(refName(schema.$ref));

  // const and enum first: with an anyOf of plain types beside them, they are the stricter part.
  if (schema.const !== undefined) return `z.literal(${literal(schema.const)})`;
  if (schema.enum) {
    const values = schema.enum.filter((value) => value !== null);
    const nullable = values.length !== schema.enum.length;
    if (values.length === 0) return 'z.null()';
    const base = values.every((value) => typeof value === 'string')
      ? `z.enum([${values.map(literal).join(', ')}])`
      : values.length === 1
        ? `z.literal(${literal(values[0])})`
        : `z.union([${values.map((value) => `z.literal(${literal(value)})`).join(', ')}])`;
    return nullable ? `${base}.nullable()` : base;
  }
  const union = schema.anyOf ?? schema.oneOf;
  if (union) {
    const { rest, nullable } = withoutNull(union);
    const base =
      rest.length === 0
        ? 'z.null()'
        : rest.length === 1
          ? zodOf(rest[0], indent)
          : `z.union([${rest.map((member) => zodOf(member, indent)).join(', ')}])`;
    return nullable && rest.length > 0 ? `${base}.nullable()` : base;
  }
  if (schema.allOf) {
    const [first, ...others] = schema.allOf.map((member) => zodOf(member, indent));
    return others.reduce((acc, member) => `z.intersection(${acc}, ${member})`, first ?? 'z.unknown()');
  }
  if (Array.isArray(schema.type)) {
    const { rest, nullable } = withoutNull(schema.type.map((type) => ({ ...schema, type })));
    const base =
      rest.length === 1 ? zodOf(rest[0], indent) : `z.union([${rest.map((m) => zodOf(m, indent)).join(', ')}])`;
    return nullable ? `${base}.nullable()` : base;
  }

  switch (schema.type) {
    case 'null':
      return 'z.null()';
    case 'boolean':
      return 'z.boolean()';
    case 'integer':
    case 'number': {
      let out = schema.type === 'integer' ? 'z.int()' : 'z.number()';
      if (typeof schema.minimum === 'number') out += `.min(${schema.minimum})`;
      if (typeof schema.maximum === 'number') out += `.max(${schema.maximum})`;
      if (typeof schema.exclusiveMinimum === 'number') out += `.gt(${schema.exclusiveMinimum})`;
      if (typeof schema.exclusiveMaximum === 'number') out += `.lt(${schema.exclusiveMaximum})`;
      if (typeof schema.multipleOf === 'number') out += `.multipleOf(${schema.multipleOf})`;
      return out;
    }
    case 'string': {
      let out: string;
      switch (schema.format) {
        case 'date-time':
          out = 'z.iso.datetime({ offset: true })';
          break;
        case 'date':
          out = 'z.iso.date()';
          break;
        case 'uuid':
          out = 'z.uuid()';
          break;
        case 'email':
          out = 'z.email()';
          break;
        case 'uri':
          out = 'z.url()';
          break;
        default:
          out = 'z.string()';
      }
      if (typeof schema.minLength === 'number') out += `.min(${schema.minLength})`;
      if (typeof schema.maxLength === 'number') out += `.max(${schema.maxLength})`;
      if (typeof schema.pattern === 'string') out += `.regex(new RegExp(${literal(schema.pattern)}))`;
      return out;
    }
    case 'array': {
      if (schema.prefixItems) {
        const rest = schema.items ? `.rest(${zodOf(schema.items, indent)})` : '';
        return `z.tuple([${schema.prefixItems.map((item) => zodOf(item, indent)).join(', ')}])${rest}`;
      }
      let out = `z.array(${zodOf(schema.items, indent)})`;
      if (typeof schema.minItems === 'number') out += `.min(${schema.minItems})`;
      if (typeof schema.maxItems === 'number') out += `.max(${schema.maxItems})`;
      return out;
    }
    case 'object':
      return zodObject(schema, indent);
    default:
      if (schema.properties || schema.additionalProperties) return zodObject(schema, indent);
      return 'z.unknown()';
  }
}

/** Whether the schema being emitted is sent by clients only (request bodies and what they refer to). */
let closing = false;

/** Components reachable from request bodies and never from responses. */
function requestOnlyComponents(document: Document, ops: Op[]): Set<string> {
  const reach = (roots: (Schema | undefined)[]) => {
    const seen = new Set<string>();
    const visit = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach(visit);
      const ref = (node as Schema).$ref;
      if (typeof ref === 'string') {
        const name = refName(ref);
        if (seen.has(name)) return;
        seen.add(name);
        visit(document.components.schemas[name]);
        return;
      }
      Object.values(node).forEach(visit);
    };
    roots.forEach(visit);
    return seen;
  };
  const requests = reach(ops.map((op) => op.body?.schema));
  const responses = reach(
    ops.flatMap((op) => [...op.successes.map((r) => r.schema), ...op.errors.map((e) => e.schema)]),
  );
  return new Set([...requests].filter((name) => !responses.has(name)));
}

function zodObject(schema: Schema, indent: string): string {
  const properties = Object.entries(schema.properties ?? {});
  const extra = schema.additionalProperties;
  if (properties.length === 0 && extra !== undefined && extra !== false) {
    const key = schema.propertyNames ? zodOf(schema.propertyNames, indent) : 'z.string()';
    return `z.record(${key}, ${zodOf(extra, indent)})`;
  }
  if (properties.length === 0 && extra === undefined) return 'z.record(z.string(), z.unknown())';
  const required = new Set(schema.required ?? []);
  const inner = `${indent}  `;
  const fields = properties.map(([key, property]) => {
    const value = zodOf(property, inner);
    return `${inner}${propertyKey(key)}: ${required.has(key) ? value : `${value}.optional()`},`;
  });
  const body = fields.length > 0 ? `{\n${fields.join('\n')}\n${indent}}` : '{}';
  const catchall = extra && extra !== true ? `.catchall(${zodOf(extra, indent)})` : '';
  // A closed request object stays closed: in a union, a body with another variant's keys must not match
  // this one (and lose those keys on the way out). Responses stay open, so a newer server's extra fields
  // never break an older client.
  return `${extra === false && closing ? 'z.strictObject' : 'z.object'}(${body})${catchall}`;
}

// ---------------------------------------------------------------------------------------------
// Operations

interface SuccessResponse {
  status: number;
  mediaType?: string;
  schema?: Schema;
}

interface Op {
  operationId: string;
  fn: string;
  type: string;
  method: string;
  path: string;
  object: OperationObject;
  parameters: Parameter[];
  body?: { mediaType: string; required: boolean; schema: Schema };
  successes: SuccessResponse[];
  errors: { status: number; schema?: Schema; description?: string }[];
  security: string[][];
  securityNames: string[][];
  paged: boolean;
  customerOnly: boolean;
  namespaces: string[];
  methodName: string;
}

function securityKind(document: Document, name: string): string {
  const scheme = document.components.securitySchemes?.[name];
  if (/customer/i.test(name)) return 'customer';
  if (scheme?.type === 'apiKey' && scheme.in === 'cookie') return 'cookie';
  return 'bearer';
}

function resolveSchema(document: Document, schema: Schema | undefined): Schema | undefined {
  let current = schema;
  for (let depth = 0; current?.$ref && depth < 20; depth++)
    current = document.components.schemas[refName(current.$ref)];
  return current;
}

function isPaged(document: Document, parameters: Parameter[], successes: SuccessResponse[]): boolean {
  if (!parameters.some((parameter) => parameter.in === 'query' && parameter.name === 'page')) return false;
  const ok = successes.find((success) => success.status === 200);
  const schema = resolveSchema(document, ok?.schema);
  const items = schema?.properties?.items;
  const pagination = resolveSchema(document, schema?.properties?.pagination);
  return Boolean(items && resolveSchema(document, items)?.type === 'array' && pagination?.properties?.max_page);
}

function collectOperations(document: Document): Op[] {
  const ops: Op[] = [];
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries(document.paths)) {
    const shared = ((item as { parameters?: Parameter[] }).parameters ?? []) as Parameter[];
    for (const method of METHODS) {
      const object = item[method];
      if (!object) continue;
      const operationId = object.operationId ?? `${method} ${path}`;
      const fn = camel(operationId);
      if (seen.has(fn)) throw new Error(`Operations ${seen.get(fn)} and ${operationId} share the name ${fn}`);
      seen.set(fn, operationId);

      const parameters = [...shared, ...(object.parameters ?? [])].filter((parameter) => parameter.in !== 'cookie');
      if (parameters.some((parameter) => parameter.name === 'body'))
        throw new Error(`${operationId}: a parameter named "body" clashes with the request body`);

      let body: Op['body'];
      if (object.requestBody) {
        const content = object.requestBody.content;
        const mediaType =
          ['application/json', 'application/x-www-form-urlencoded'].find((type) => content[type]) ??
          Object.keys(content)[0]!;
        body = { mediaType, required: object.requestBody.required ?? false, schema: content[mediaType]!.schema };
      }

      const successes: SuccessResponse[] = [];
      const errors: Op['errors'] = [];
      for (const [code, response] of Object.entries(object.responses)) {
        const status = Number(code);
        if (!Number.isInteger(status)) continue;
        const mediaType = response.content
          ? (['application/json'].find((type) => response.content![type]) ?? Object.keys(response.content)[0])
          : undefined;
        const schema = mediaType ? (response.content![mediaType]!.schema ?? {}) : undefined;
        if (status >= 200 && status < 400) successes.push({ status, mediaType, schema });
        else errors.push({ status, schema, description: response.description });
      }

      const securityNames = (object.security ?? document.security ?? []).map((requirement) => Object.keys(requirement));
      const security = securityNames.map((names) => names.map((name) => securityKind(document, name)));
      const customerOnly =
        security.length > 0 &&
        security.every((alternative) => alternative.includes('customer')) &&
        !security.some((alternative) => alternative.length === 0);
      const { namespaces, method: methodName } = operationPath(operationId);
      ops.push({
        operationId,
        fn,
        type: pascal(operationId),
        method: method.toUpperCase(),
        path,
        object,
        parameters,
        body,
        successes,
        errors,
        security,
        securityNames,
        paged: isPaged(document, parameters, successes),
        customerOnly,
        namespaces: namespaces.length > 0 ? namespaces : ['default'],
        methodName,
      });
    }
  }
  return ops;
}

// ---------------------------------------------------------------------------------------------
// Emitters

const HEADER = `// Generated by packages/sdk/scripts/generate.ts from openapi.json. Do not edit: run \`npm run openapi\`.\n`;

function jsdoc(lines: (string | undefined)[], indent = ''): string {
  const text = lines
    .filter((line): line is string => Boolean(line))
    .flatMap((line) => line.split('\n'))
    .map((line) => line.replace(/\*\//g, '*\\/'));
  if (text.length === 0) return '';
  return `${indent}/**\n${text.map((line) => `${indent} * ${line}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

function opRef(op: Op): string {
  return `O[${JSON.stringify(op.operationId)}]`;
}

function responseType(op: Op): string {
  const types = op.successes.map((success) =>
    success.schema === undefined
      ? 'void'
      : success.mediaType === 'application/json'
        ? `${opRef(op)}['responses'][${success.status}]['content']['application/json']`
        : 'string',
  );
  const unique = [...new Set(types)];
  return unique.length > 0 ? unique.join(' | ') : 'void';
}

function requestOptional(op: Op): boolean {
  return !op.parameters.some((parameter) => parameter.in === 'path' || parameter.required) && !op.body?.required;
}

function emitModels(document: Document, ops: Op[]): string {
  const out = [HEADER, `import type { components, operations as O } from './schema.js';\n`];
  out.push(`type S = components['schemas'];\n`);
  const schemaTypes = new Set(Object.keys(document.components.schemas).map(typeName));
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    out.push(`${jsdoc([schema.description])}export type ${typeName(name)} = S[${JSON.stringify(name)}];`);
  }
  out.push('');
  for (const op of ops) {
    const fields: string[] = [];
    for (const parameter of op.parameters) {
      const where = parameter.in;
      const optional = where !== 'path' && !parameter.required;
      const container =
        where === 'path' && !optional
          ? `${opRef(op)}['parameters']['${where}']`
          : `NonNullable<${opRef(op)}['parameters']['${where}']>`;
      fields.push(
        `${jsdoc([parameter.description ?? parameter.schema.description], '  ')}  ${propertyKey(parameter.name)}${
          optional ? '?' : ''
        }: ${container}[${JSON.stringify(parameter.name)}];`,
      );
    }
    if (op.body) {
      fields.push(
        `  body${op.body.required ? '' : '?'}: NonNullable<${opRef(op)}['requestBody']>['content'][${JSON.stringify(
          op.body.mediaType,
        )}];`,
      );
    }
    out.push(
      `/** Request of \`${op.operationId}\` (${op.method} ${op.path}). */\nexport interface ${op.type}Request {${
        fields.length > 0 ? `\n${fields.join('\n')}\n` : ''
      }}`,
    );
    const alias = `${op.type}Response`;
    if (schemaTypes.has(alias)) {
      // The contract names the answer's own schema like the alias (EventsIngestResponse): that type is it.
      const refs = op.successes.map((success) => success.schema?.$ref?.split('/').pop());
      if (refs.length !== 1 || typeName(refs[0] ?? '') !== alias) {
        throw new Error(`${op.operationId}: ${alias} names a schema that is not the operation's answer`);
      }
      continue;
    }
    out.push(`/** Response of \`${op.operationId}\`. */\nexport type ${alias} = ${responseType(op)};\n`);
  }
  return `${out.join('\n')}\n`;
}

function emitZod(document: Document, ops: Op[]): string {
  const out = [
    HEADER,
    `import { z } from 'zod/v4';`,
    `import type * as M from './models.js';\n`,
    `// Every schema is lazy: declaration order does not matter, and unused schemas tree-shake away.\n`,
  ];
  const requestOnly = requestOnlyComponents(document, ops);
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    closing = requestOnly.has(name);
    out.push(
      `export const ${schemaName(name)}: z.ZodType<M.${typeName(name)}> = /* @__PURE__ */ z.lazy(() => ${zodOf(
        schema,
        '',
      )});\n`,
    );
  }
  closing = false;
  for (const op of ops) {
    const fields = op.parameters.map((parameter) => {
      const optional = parameter.in !== 'path' && !parameter.required;
      const value = zodOf(parameter.schema, '  ');
      return `  ${propertyKey(parameter.name)}: ${optional ? `${value}.optional()` : value},`;
    });
    if (op.body) {
      const value = zodOf(op.body.schema, '  ');
      fields.push(`  body: ${op.body.required ? value : `${value}.optional()`},`);
    }
    const object = fields.length > 0 ? `z.object({\n${fields.join('\n')}\n})` : 'z.object({})';
    out.push(
      `export const ${op.type}RequestSchema: z.ZodType<M.${op.type}Request> = /* @__PURE__ */ z.lazy(() => ${object});\n`,
    );
    for (const success of op.successes) {
      if (success.schema === undefined || success.mediaType !== 'application/json' || success.schema.$ref) continue;
      out.push(
        `export const ${op.type}Response${success.status}Schema = /* @__PURE__ */ z.lazy(() => ${zodOf(
          success.schema,
          '',
        )});\n`,
      );
    }
  }
  return out.join('\n');
}

function responseSchemaRef(op: Op, success: SuccessResponse): string | undefined {
  if (success.schema === undefined || success.mediaType !== 'application/json') return undefined;
  return success.schema.$ref
    ? `Z.${schemaName(refName(success.schema.$ref))}`
    : `Z.${op.type}Response${success.status}Schema`;
}

function emitOperations(ops: Op[]): string {
  const out = [
    HEADER,
    `import {`,
    `  TesseraCore,`,
    `  type ClientOptions,`,
    `  type CustomerSessionRequestOptions,`,
    `  type RequestOptions,`,
    `} from '../lib/client.js';`,
    `import { call, type Operation } from '../lib/http.js';`,
    `import { paginate, type PageIterator } from '../lib/paging.js';`,
    `import type * as M from './models.js';`,
    `import * as Z from './zod.js';\n`,
  ];
  for (const op of ops) {
    const responses = op.successes
      .map((success) => {
        const schema = responseSchemaRef(op, success);
        const parts = [`status: ${success.status}`];
        if (success.mediaType) parts.push(`mediaType: ${JSON.stringify(success.mediaType)}`);
        if (schema) parts.push(`schema: ${schema}`);
        return `{ ${parts.join(', ')} }`;
      })
      .join(', ');
    const errors = op.errors
      .map(
        (error) =>
          `${error.status}: ${error.schema?.$ref ? `Z.${schemaName(refName(error.schema.$ref))}` : 'undefined'}`,
      )
      .join(', ');
    const parameters = op.parameters
      .map((parameter) => {
        const parts = [`name: ${JSON.stringify(parameter.name)}`, `in: ${JSON.stringify(parameter.in)}`];
        if (parameter.style) parts.push(`style: ${JSON.stringify(parameter.style)}`);
        if (parameter.explode !== undefined) parts.push(`explode: ${parameter.explode}`);
        return `{ ${parts.join(', ')} }`;
      })
      .join(', ');
    out.push(
      `export const ${op.fn}Operation: Operation<M.${op.type}Request, M.${op.type}Response> = {`,
      `  id: ${JSON.stringify(op.operationId)},`,
      `  method: ${JSON.stringify(op.method)},`,
      `  path: ${JSON.stringify(op.path)},`,
      `  parameters: [${parameters}],`,
      `  request: Z.${op.type}RequestSchema,`,
      ...(op.body
        ? [`  body: { mediaType: ${JSON.stringify(op.body.mediaType)}, required: ${op.body.required} },`]
        : []),
      `  responses: [${responses}],`,
      `  errors: { ${errors} },`,
      `  security: ${JSON.stringify(op.security)},`,
      `};\n`,
    );

    const optional = requestOptional(op);
    const request = `request${optional ? '' : ''}: M.${op.type}Request${optional ? ' = {}' : ''}`;
    const optionsType = op.customerOnly ? 'CustomerSessionRequestOptions' : 'RequestOptions';
    const options = op.customerOnly ? `options: ${optionsType}` : `options?: ${optionsType}`;
    const errorLines = op.errors.map((error) => `@throws ${error.status} ${error.description ?? ''}`.trimEnd());
    const doc = jsdoc([
      op.object.summary,
      op.object.description,
      `\`${op.method} ${op.path}\` (\`${op.operationId}\`)${op.paged ? '. Paged: iterate the result for the next pages.' : ''}`,
      op.customerOnly ? 'Customer portal: pass `options.customerSession`.' : undefined,
      op.object.deprecated ? '@deprecated' : undefined,
      ...errorLines,
    ]);
    if (op.paged) {
      out.push(
        `${doc}export function ${op.fn}(\n  client: TesseraCore,\n  ${request},\n  ${options},\n): Promise<PageIterator<M.${op.type}Response, M.${op.type}Request>> {`,
        `  return paginate(client, ${op.fn}Operation, request, options);`,
        `}\n`,
      );
    } else {
      out.push(
        `${doc}export function ${op.fn}(\n  client: TesseraCore,\n  ${request},\n  ${options},\n): Promise<M.${op.type}Response> {`,
        `  return call(client, ${op.fn}Operation, request, options);`,
        `}\n`,
      );
    }
  }

  // Resource-grouped facade: new Tessera(options).organizations.list(request, options).
  interface Node {
    children: Map<string, Node>;
    ops: Op[];
  }
  const tree: Node = { children: new Map(), ops: [] };
  for (const op of ops) {
    let node = tree;
    for (const namespace of op.namespaces) {
      if (!node.children.has(namespace)) node.children.set(namespace, { children: new Map(), ops: [] });
      node = node.children.get(namespace)!;
    }
    node.ops.push(op);
  }
  const classes: string[] = [];
  const classOf = (path: string[]) => `${pascal(path.join(' '))}Resource`;
  const emitClass = (path: string[], node: Node): void => {
    const isRoot = path.length === 0;
    const children = [...node.children.entries()].sort(([a], [b]) => a.localeCompare(b));
    for (const [name, child] of children) emitClass([...path, name], child);
    const members = children.map(([name]) => `  readonly ${propertyKey(name)}: ${classOf([...path, name])};`);
    const constructorBody = children.map(
      ([name]) => `    this.${name} = new ${classOf([...path, name])}(${isRoot ? 'this' : 'client'});`,
    );
    const methods = node.ops.map((op) => {
      const optional = requestOptional(op);
      const optionsType = op.customerOnly ? 'CustomerSessionRequestOptions' : 'RequestOptions';
      const returns = op.paged
        ? `Promise<PageIterator<M.${op.type}Response, M.${op.type}Request>>`
        : `Promise<M.${op.type}Response>`;
      return [
        `${jsdoc([op.object.summary, `\`${op.method} ${op.path}\`; see {@link ${op.fn}}.`], '  ')}  ${
          op.methodName
        }(request: M.${op.type}Request${optional ? ' = {}' : ''}, options${op.customerOnly ? '' : '?'}: ${optionsType}): ${returns} {`,
        `    return ${op.fn}(${isRoot ? 'this' : 'this.client'}, request, options);`,
        `  }`,
      ].join('\n');
    });
    const lines: string[] = [];
    if (isRoot) {
      lines.push(
        `/** The whole API as one object: \`new Tessera({ serverURL, accessToken }).organizations.list()\`. */`,
        `export class Tessera extends TesseraCore {`,
        ...members,
        ``,
        `  constructor(options: ClientOptions = {}) {`,
        `    super(options);`,
        ...constructorBody,
        `  }`,
      );
    } else {
      lines.push(
        `/** \`tessera.${path.join('.')}\` */`,
        `export class ${classOf(path)} {`,
        ...members,
        ...(members.length > 0 ? [``] : []),
        `  constructor(readonly client: TesseraCore) {`,
        ...constructorBody,
        `  }`,
      );
    }
    if (methods.length > 0) lines.push('', methods.join('\n\n'));
    lines.push('}\n');
    classes.push(lines.join('\n'));
  };
  emitClass([], tree);
  out.push(...classes);
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Reference documentation

function anchor(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}

function typeText(schema: Schema | boolean | undefined): string {
  if (schema === undefined || schema === true) return 'any';
  if (schema === false) return 'never';
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return `[${name}](#${anchor(name)})`;
  }
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (schema.enum) return schema.enum.map((value) => `\`${JSON.stringify(value)}\``).join(' \\| ');
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.map(typeText).join(' \\| ');
  if (schema.allOf) return schema.allOf.map(typeText).join(' & ');
  if (Array.isArray(schema.type)) return schema.type.join(' \\| ');
  switch (schema.type) {
    case 'array':
      if (schema.prefixItems) return `[${schema.prefixItems.map(typeText).join(', ')}]`;
      return `${wrap(typeText(schema.items))}[]`;
    case 'object':
      if (!schema.properties && schema.additionalProperties && schema.additionalProperties !== true)
        return `map of ${typeText(schema.additionalProperties)}`;
      return 'object';
    case 'string':
      return schema.format ? `string (${schema.format})` : 'string';
    case undefined:
      return 'any';
    default:
      return String(schema.type);
  }
}

function wrap(text: string): string {
  return text.includes('\\|') ? `(${text})` : text;
}

function constraints(schema: Schema | undefined): string {
  if (!schema) return '';
  const base = resolveUnion(schema);
  const notes: string[] = [];
  const keys: [string, string][] = [
    ['minLength', 'min length'],
    ['maxLength', 'max length'],
    ['minimum', '≥'],
    ['maximum', '≤'],
    ['exclusiveMinimum', '>'],
    ['exclusiveMaximum', '<'],
    ['minItems', 'min items'],
    ['maxItems', 'max items'],
  ];
  for (const [key, label] of keys) if (base[key] !== undefined) notes.push(`${label} ${String(base[key])}`);
  if (typeof base.pattern === 'string') notes.push(`pattern \`${base.pattern}\``);
  if (schema.default !== undefined) notes.push(`default \`${JSON.stringify(schema.default)}\``);
  if (schema.description) notes.push(schema.description.replace(/\n/g, ' '));
  return notes.join('; ').replace(/\|/g, '\\|');
}

function resolveUnion(schema: Schema): Schema {
  const union = schema.anyOf ?? schema.oneOf;
  if (!union) return schema;
  const rest = union.filter((member) => member.type !== 'null');
  return rest.length === 1 ? rest[0]! : schema;
}

function emitReference(document: Document, ops: Op[]): string {
  const out: string[] = [
    '# Tessera SDK reference',
    '',
    '<!-- Generated by packages/sdk/scripts/generate.ts from openapi.json. Do not edit: run `npm run openapi`. -->',
    '',
    'Every operation is a standalone function taking the client first (`organizationsList(client, request, options)`) and a',
    'method of the `Tessera` class (`tessera.organizations.list(request, options)`). The request object holds the path and',
    'query parameters by their wire names and, when the operation has one, the body under `body`. Types: `<Name>Request`,',
    '`<Name>Response` and the models below, all exported by the package. Errors: a 4XX/5XX with an `{error, detail}`',
    'body throws the class named by `error` (`ResourceNotFound`, `NotPermitted`, …); a 422 `{detail: [...]}` throws',
    '`HTTPValidationError`; other answers throw `SDKError`.',
    '',
    '## Operations',
    '',
  ];
  const groups = new Map<string, Op[]>();
  for (const op of ops) {
    const key = op.namespaces.join('.');
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(op);
  }
  const sortedGroups = [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
  for (const [group, members] of sortedGroups) {
    out.push(`- **${group}**: ${members.map((op) => `[${op.methodName}](#${anchor(op.fn)})`).join(', ')}`);
  }
  out.push('');
  const schemes = document.components.securitySchemes ?? {};
  for (const [group, members] of sortedGroups) {
    out.push(`### ${group}`, '');
    for (const op of members) {
      out.push(`#### ${op.fn}`, '');
      if (op.object.summary) out.push(op.object.summary, '');
      if (op.object.description) out.push(op.object.description, '');
      out.push(`- Operation: \`${op.operationId}\` — \`${op.method} ${op.path}\``);
      out.push(
        `- Call: \`${op.fn}(client, request, options)\` or \`tessera.${[...op.namespaces, op.methodName].join('.')}(request, options)\``,
      );
      const security = op.securityNames
        .map((names) =>
          names.length === 0
            ? 'none'
            : names.map((name) => (schemes[name]?.description ? `${name}` : name)).join(' + '),
        )
        .join(' or ');
      out.push(`- Security: ${security || 'none'}${op.customerOnly ? ' (pass `options.customerSession`)' : ''}`);
      const scopes = op.object['x-tessera-scopes'];
      if (scopes && scopes.length > 0) out.push(`- Scopes (any one): ${scopes.map((s) => `\`${s}\``).join(', ')}`);
      if (op.paged) out.push('- Paged: the result is a page iterator (`for await (const page of result)`)');
      out.push('');
      if (op.parameters.length > 0) {
        out.push('| parameter | in | type | required | notes |', '|---|---|---|---|---|');
        for (const parameter of op.parameters) {
          const style = parameter.style === 'deepObject' ? 'deepObject (`name[key]=value`)' : '';
          const notes = [constraints(parameter.schema), style, parameter.description?.replace(/\|/g, '\\|')]
            .filter(Boolean)
            .join('; ');
          out.push(
            `| \`${parameter.name}\` | ${parameter.in} | ${typeText(parameter.schema)} | ${
              parameter.in === 'path' || parameter.required ? 'yes' : 'no'
            } | ${notes} |`,
          );
        }
        out.push('');
      }
      if (op.body) {
        out.push(
          `Body (\`body\`, ${op.body.mediaType}${op.body.required ? '' : ', optional'}): ${typeText(op.body.schema)}`,
          '',
        );
      }
      out.push('| response | body |', '|---|---|');
      for (const success of op.successes) {
        out.push(`| ${success.status} | ${success.schema === undefined ? 'none' : typeText(success.schema)} |`);
      }
      for (const error of op.errors) {
        const named = error.schema?.$ref && refName(error.schema.$ref) === 'NamedError';
        const description = error.description ?? '';
        const detail = named && /^[A-Z][A-Za-z]+$/.test(description) ? `\`${description}\` error` : description;
        out.push(`| ${error.status} | ${detail}: ${typeText(error.schema)} |`);
      }
      out.push('');
    }
  }

  out.push('## Models', '');
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    out.push(`### ${name}`, '');
    if (schema.description) out.push(schema.description, '');
    if (schema.properties) {
      const required = new Set(schema.required ?? []);
      out.push('| property | type | required | notes |', '|---|---|---|---|');
      for (const [key, property] of Object.entries(schema.properties)) {
        out.push(
          `| \`${key}\` | ${typeText(property)} | ${required.has(key) ? 'yes' : 'no'} | ${constraints(property)} |`,
        );
      }
    } else {
      out.push(`${typeText(schema)}${constraints(schema) ? ` (${constraints(schema)})` : ''}`);
    }
    out.push('');
  }
  return `${out.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------

/** The generated files (path relative to packages/sdk → text) for an OpenAPI 3.1 document. */
export function generate(input: unknown): Record<string, string> {
  const document = input as Document;
  const ops = collectOperations(document);
  return {
    'src/generated/models.ts': emitModels(document, ops),
    'src/generated/zod.ts': emitZod(document, ops),
    'src/generated/operations.ts': emitOperations(ops),
    'REFERENCE.md': emitReference(document, ops),
  };
}

function main(): void {
  const input = resolve(root, process.argv[2] ?? '../../openapi.json');
  const outDir = resolve(process.argv[3] ?? root);
  const document = JSON.parse(readFileSync(input, 'utf8')) as Document;
  for (const [file, text] of Object.entries(generate(document))) writeFileSync(resolve(outDir, file), text);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
