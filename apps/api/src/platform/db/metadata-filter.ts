import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * `metadata[key]=value` filters as the reference applies them: the JSONB value's text (`->>`) equals
 * the given string, so `123` matches the integer 123 and `true` the boolean; repeated values for one key
 * are OR-ed, different keys AND-ed.
 */
export function metadataMatches(
  column: string,
  filter: Record<string, string[]> | undefined,
): (eb: ExpressionBuilder<DB, keyof DB>) => Expression<SqlBool> {
  return (eb) => {
    const entries = Object.entries(filter ?? {}).filter(([, values]) => values.length > 0);
    if (entries.length === 0) return sql<SqlBool>`true`;
    return eb.and(entries.map(([key, values]) => eb(sql`${sql.ref(column)} ->> ${key}`, 'in', values)));
  };
}
