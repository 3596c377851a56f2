import { z } from 'zod/v4';

/** Wire building blocks shared by every module's schemas. */
export const DateTime = () => z.iso.datetime({ offset: true });

/** The range of PostgreSQL's `integer` (int4) columns. */
export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;

/**
 * An integer input kept in an `integer` column: outside the column's range is a 422, never a database
 * error. (`z.int()` alone stops at ±2^53, which `bigint` columns hold.)
 */
export const int32 = () => z.int().min(INT32_MIN).max(INT32_MAX);

export const Id = () => z.uuid({ message: 'Input should be a valid UUID' });

/** A timestamp as the wire wants it: ISO 8601 with an offset (UTC, `Z`). */
export function iso(date: Date): string;
export function iso(date: Date | null | undefined): string | null;
export function iso(date: Date | null | undefined): string | null {
  return date ? date.toISOString() : null;
}

export const Pagination = z.object({ total_count: z.int(), max_page: z.int() }).meta({ id: 'Pagination' });

export function ListResource<T extends z.ZodType>(item: T, id: string) {
  return z.object({ items: z.array(item), pagination: Pagination }).meta({ id });
}

export const IdParams = z.object({ id: Id() });
