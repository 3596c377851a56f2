import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Subject } from './subject.js';

/**
 * Tenant isolation lives here: every repository read starts from what the subject may see. An
 * organization token sees its own organization; a user sees the organizations they belong to; nobody
 * else sees any. A row outside that set is simply not found.
 */
export function organizationVisibleTo(
  subject: Subject,
  column: string,
): (eb: ExpressionBuilder<DB, keyof DB>) => Expression<SqlBool> {
  return (eb) => {
    const ref = sql.ref<string>(column);
    switch (subject.kind) {
      case 'organization':
        return eb(ref, '=', subject.organizationId);
      case 'user':
        return eb(
          ref,
          'in',
          eb
            .selectFrom('user_organizations')
            .select('user_organizations.organization_id')
            .where('user_organizations.user_id', '=', subject.userId),
        );
      default:
        return sql<SqlBool>`false`;
    }
  };
}
