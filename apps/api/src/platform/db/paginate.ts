import { sql, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { PageParams } from '../http/query.js';
import type { Executor } from './database.js';

/**
 * Runs one page of a query and its total in one statement (`count(*) over()`); a page past the end
 * falls back to a separate count so the total stays right.
 */
export async function paginate<TB extends keyof DB, O>(
  executor: Executor,
  query: SelectQueryBuilder<DB, TB, O>,
  params: PageParams,
): Promise<{ rows: O[]; total: number }> {
  const offset = (params.page - 1) * params.limit;
  const rows = (await query
    .select(sql<string>`count(*) over()`.as('__total'))
    .limit(params.limit)
    .offset(offset)
    .execute()) as (O & { __total: string | number })[];
  if (rows.length > 0) {
    const total = Number(rows[0]!.__total);
    return { rows: rows.map(({ __total: _ignored, ...row }) => row as O), total };
  }
  if (params.page === 1) return { rows: [], total: 0 };
  const counted = await executor
    .selectFrom(query.clearOrderBy().as('q'))
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return { rows: [], total: Number(counted.n) };
}
