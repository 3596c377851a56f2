import { readFileSync } from 'node:fs';
import type { World } from './world.js';

/** The committed contract, the list of operations every generated suite walks. */
export const OPENAPI_PATH = new URL('../../../../openapi.json', import.meta.url);

export type JsonSchema = Record<string, any>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  style?: string;
  schema: JsonSchema;
}

export interface Operation {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  operationId: string;
  parameters: Parameter[];
  /** The JSON body's schema, when the operation takes one. */
  body?: JsonSchema;
  bodyRequired: boolean;
  /** Security alternatives, each the names of the schemes it needs (`[]`: no credentials). */
  security: string[][];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, JsonSchema> };
}

export function loadDocument(): OpenApiDocument {
  return JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as OpenApiDocument;
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = op.requestBody?.content?.['application/json'];
      out.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        operationId: op.operationId,
        parameters: op.parameters ?? [],
        body: content?.schema,
        bodyRequired: Boolean(op.requestBody?.required),
        security: (op.security ?? [{}]).map((alternative: Record<string, unknown>) => Object.keys(alternative)),
      });
    }
  }
  return out;
}

export const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * The headers of the credential an operation is called with: none when it may be called without
 * (the public buyer and sign-in paths), else the first alternative it documents.
 */
export function credentialHeaders(operation: Operation, world: World): Record<string, string> {
  if (operation.security.some((alternative) => alternative.length === 0)) return {};
  const scheme = operation.security[0]![0];
  switch (scheme) {
    case 'access_token':
      return { authorization: `Bearer ${world.token}` };
    case 'customer_session':
      return { authorization: `Bearer ${world.customerSession}` };
    case 'session_cookie':
      return world.user.headers;
    default:
      throw new Error(`${operation.operationId}: unknown security scheme ${scheme}`);
  }
}
