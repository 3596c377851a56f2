import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { EmailsTable } from '../../db/tables/webhooks.js';
import { beforeCommit } from '../db/commit-hooks.js';
import type { Executor } from '../db/database.js';
import type { Context } from '../context.js';
import { serverClock } from '../test-clock.js';
import {
  emailOfKindExists,
  findOrganizationForMail,
  insertEmailRows,
  type OrganizationForMail,
} from './mail.repository.js';
import { sendEmailJob } from './sender.js';
import { templateEnabled } from './settings.js';
import { renderTemplate, type TemplateData, type TemplateName } from './templates.js';

export interface QueueEmailInput<K extends TemplateName> {
  organizationId: string;
  /** The organization as findOrganizationForMail reads it, when the caller already has (saves the read). */
  organization?: OrganizationForMail;
  to: string | string[];
  template: K;
  data: TemplateData[K];
  /**
   * At most one email of this template with this key per organization (a refund is emailed when it
   * succeeds, whichever event says so first). Stored in `kind` as `template:key`.
   */
  once?: string;
}

/**
 * The one way to send an email. It is rendered now and written to the outbox (`emails`) in the caller's
 * transaction, with the job that sends it, as the transaction commits: it goes out if and only if the
 * change that caused it commits. Answers the row's id, or null when nothing was queued (no recipient,
 * or the organization turned this customer email off in `customer_email_settings`).
 */
export async function queueEmail<K extends TemplateName>(
  ctx: Context,
  input: QueueEmailInput<K>,
): Promise<string | null> {
  const to = (Array.isArray(input.to) ? input.to : [input.to]).filter((address) => address.trim() !== '');
  if (to.length === 0) return null;
  const organization = input.organization ?? (await findOrganizationForMail(ctx.db, input.organizationId));
  if (!organization) return null;
  if (!templateEnabled(input.template, organization.customer_email_settings)) return null;
  const kind = input.once === undefined ? input.template : `${input.template}:${input.once}`;
  const pending = ctx.db.isTransaction ? pendingIn.get(ctx.db) : undefined;
  if (input.once !== undefined) {
    if (pending?.some((row) => row.organization_id === organization.id && row.kind === kind)) return null;
    if (await emailOfKindExists(ctx.db, organization.id, kind)) return null;
  }
  const rendered = renderTemplate(input.template, { name: organization.name }, input.data);
  const row: Insertable<EmailsTable> = {
    id: randomUUID(),
    // The organization's time (what its dashboard shows); sending is due on the server's clock.
    created_at: ctx.clock.now(),
    organization_id: organization.id,
    to_addresses: to,
    subject: rendered.subject,
    text_body: rendered.text,
    html_body: rendered.html,
    template: input.template,
    kind,
    status: 'pending',
    next_attempt_at: serverClock(ctx.clock).now(),
    sent_at: null,
  };
  if (!ctx.db.isTransaction) {
    await insertEmailRows(ctx.db, [row]);
    await ctx.jobs.enqueue(sendEmailJob, { email_id: row.id });
    return row.id;
  }
  if (pending) {
    pending.push(row);
    return row.id;
  }
  // A transaction's emails are stored together as it commits, each with its send job (two statements
  // for all of them): a billing group's receipts cost two statements instead of two each. The list is
  // set before the hook's registration is awaited, so emails queued meanwhile join it.
  const db = ctx.db;
  const rows = [row];
  pendingIn.set(db, rows);
  const jobs = ctx.jobs;
  await beforeCommit(db, 'mail.outbox', PHASE, async () => {
    pendingIn.delete(db);
    await insertEmailRows(db, rows);
    await jobs.enqueueMany(
      sendEmailJob,
      rows.map((email) => ({ id: randomUUID(), data: { email_id: email.id } })),
    );
  });
  return row.id;
}

/** After the webhook events (platform/events.ts), which queue their emails when they are recorded. */
const PHASE = 20;

const pendingIn = new WeakMap<Executor, Insertable<EmailsTable>[]>();
