import { z } from 'zod/v4';
import { int32 } from './schemas.js';

/**
 * Query-string building blocks. Query values arrive as strings, or arrays when a key repeats; these
 * schemas turn them into typed values and describe (as their output type) what OpenAPI documents.
 */
/**
 * What OpenAPI shows for a query schema: its preprocessing is not representable, so each helper
 * registers the plain schema of the values it accepts.
 */
export const queryDocs = new WeakMap<z.ZodType, z.ZodType>();

function documented<T extends z.ZodType>(schema: T, doc: z.ZodType): T {
  queryDocs.set(schema, doc);
  return schema;
}

const asList = (value: unknown) => (value === undefined ? undefined : Array.isArray(value) ? value : [value]);

function single(value: unknown): unknown {
  // A scalar parameter given twice is ambiguous: reject rather than pick one.
  return Array.isArray(value) ? { __repeated: value } : value;
}

/**
 * A filter that accepts one value or a repeated key (`?organization_id=a&organization_id=b`). Its
 * description goes on both schemas (`.meta()` afterwards would lose the documented one, which then reads
 * as required).
 */
export function oneOrList<T extends z.ZodType>(item: T, description?: string) {
  const schema = z.preprocess(asList, z.array(item).optional());
  const doc = z.union([item, z.array(item)]).optional();
  if (!description) return documented(schema, doc);
  return documented(schema.meta({ description }), doc.meta({ description }));
}

/** A single string; `description` goes on both schemas (`.meta()` afterwards would lose the documented one). */
export const queryString = (description?: string) => {
  const schema = documented(z.preprocess(single, z.string().optional()), z.string().optional());
  if (!description) return schema;
  const described = schema.meta({ description });
  queryDocs.set(described, z.string().optional().meta({ description }));
  return described;
};

export const queryUuid = () => {
  const uuid = z.uuid({ message: 'Input should be a valid UUID' });
  return documented(z.preprocess(single, uuid.optional()), uuid.optional());
};

const toInt = (v: unknown) => {
  const s = single(v);
  return typeof s === 'string' && /^-?\d+$/.test(s) ? Number(s) : s;
};

export const queryInt = () => documented(z.preprocess(toInt, int32().optional()), int32().optional());

export const queryBool = () =>
  documented(
    z.preprocess((v) => {
      const s = single(v);
      if (s === 'true' || s === '1') return true;
      if (s === 'false' || s === '0') return false;
      return s;
    }, z.boolean().optional()),
    z.boolean().optional(),
  );

export const MAX_LIMIT = 100;

/** 1 ≤ `page` ≤ 2^31 − 1 (default 1) and 1 ≤ `limit` ≤ 100 (default 10). */
const page = int32().min(1).default(1);
const limit = z.int().min(1).max(MAX_LIMIT).default(10);
export const paginationQuery = {
  page: documented(z.preprocess(toInt, page), page),
  limit: documented(z.preprocess(toInt, limit), limit),
};

export interface PageParams {
  page: number;
  limit: number;
}

export interface Sort<K extends string> {
  key: K;
  descending: boolean;
}

/**
 * `sorting` is repeatable and applied in order; a leading `-` means descending. Unknown keys are a
 * 422 at `["query","sorting"]`.
 */
export function sortingQuery<K extends string>(keys: readonly [K, ...K[]], fallback: `${'-' | ''}${NoInfer<K>}`[]) {
  const values = keys.flatMap((key) => [key, `-${key}`]) as [string, ...string[]];
  const doc = z
    .array(z.enum(values))
    .optional()
    .meta({ description: `Sorting criteria; a leading \`-\` sorts descending. Default: ${fallback.join(', ')}` });
  const schema = z.preprocess(
    asList,
    z
      .array(z.enum(values))
      .optional()
      .transform((list): Sort<K>[] =>
        (list && list.length > 0 ? list : fallback).map((entry) =>
          entry.startsWith('-')
            ? { key: entry.slice(1) as K, descending: true }
            : { key: entry as K, descending: false },
        ),
      ),
  );
  return documented(schema, doc);
}

/**
 * `metadata[key]=value` filters (deepObject). Values repeat for OR; different keys AND. Collected from
 * the raw query by `collectMetadataQuery` before validation.
 */
export const metadataQuery = () =>
  documented(
    z.record(z.string().min(1).max(40), z.preprocess(asList, z.array(z.string()))).optional(),
    z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
  );

export function collectMetadataQuery(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let metadata: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(raw)) {
    const match = /^metadata\[(.*)\]$/.exec(key);
    if (match) {
      metadata ??= {};
      metadata[match[1]!] = value;
    } else {
      out[key] = value;
    }
  }
  if (metadata) out.metadata = metadata;
  return out;
}

export interface Page<T> {
  items: T[];
  pagination: { total_count: number; max_page: number };
}

export function pageOf<T>(items: T[], totalCount: number, params: PageParams): Page<T> {
  return { items, pagination: { total_count: totalCount, max_page: Math.ceil(totalCount / params.limit) } };
}

export function mapPage<T, U>(page: Page<T>, fn: (item: T) => U): Page<U> {
  return { items: page.items.map(fn), pagination: page.pagination };
}
