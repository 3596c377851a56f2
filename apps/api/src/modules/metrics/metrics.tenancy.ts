import type { Context } from '../../platform/context.js';

/** The organizations the subject may read metrics of: its own (a token), or its memberships (a user). */
export async function visibleOrganizationIds(ctx: Context): Promise<string[]> {
  const subject = ctx.subject;
  if (subject.kind === 'organization') return [subject.organizationId];
  if (subject.kind !== 'user') return [];
  const rows = await ctx.db
    .selectFrom('user_organizations')
    .select('organization_id')
    .where('user_id', '=', subject.userId)
    .execute();
  return rows.map((row) => row.organization_id);
}
