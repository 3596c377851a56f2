import { z } from 'zod/v4';
import type { Config } from '../../config.js';
import type { Context } from '../context.js';
import type { PeriodicTask } from '../jobs/periodic.js';
import { defineJob, runIn, type JobRun } from '../jobs/queue.js';
import { serverClock } from '../test-clock.js';
import {
  claimEmail,
  countDueEmails,
  findOrganizationName,
  markEmailAttemptFailed,
  markEmailSent,
  type EmailRow,
} from './mail.repository.js';
import { oneLine } from './templates.js';
import { isPermanentFailure, outboxTransport, smtpTransport, type MailTransport } from './transport.js';

/**
 * Sending. Each email is (a) claimed in a short transaction: the row is locked with SKIP LOCKED and
 * given a sending lease, (b) handed to the transport with no transaction open, (c) marked sent (or its
 * attempt recorded) in another short transaction. A row is only claimed while `pending` and only
 * marked sent while `pending`, so once marked it is never sent again.
 *
 * At least once, not exactly once: a process that dies after the SMTP server accepted a message and
 * before (c) commits leaves the row pending under a lease that expires; the sweep then sends it again.
 * So a crash in that window can deliver one email twice (with the same Message-ID, the row's id); it
 * never loses one. Failed attempts are retried with backoff (RETRY_DELAYS_SECONDS) and given up after
 * the last; an SMTP 5xx answer is permanent and given up at once.
 *
 * Times are the server's (never an organization's test clock), as webhook delivery's.
 */

/** Delays before each retry of a failed attempt; after the last, the email is failed. */
export const RETRY_DELAYS_SECONDS = [30, 120, 600, 3600, 6 * 3600];
/** A lease outlives the transport's own timeouts (nodemailer: 2 min to connect and greet at worst). */
const LEASE_SECONDS = 5 * 60;
/** At most this many emails per sweep run; more due ⇒ the sweep enqueues itself again. */
const SWEEP_BATCH = 50;
const SWEEP_EVERY_SECONDS = 10;

/** When the next attempt is due after `attempts` failed ones; null: give up. Pure. */
export function nextAttemptAt(attempts: number, now: Date, permanent: boolean): Date | null {
  if (permanent) return null;
  const delay = RETRY_DELAYS_SECONDS[attempts - 1];
  return delay === undefined ? null : new Date(now.getTime() + delay * 1000);
}

const transports = new Map<string, MailTransport>();

/** The configured transport: SMTP with `SMTP_URL`, else the local outbox. One per URL per process. */
export function mailTransport(config: Pick<Config, 'smtpUrl' | 'baseUrl'>): MailTransport {
  if (!config.smtpUrl) return outboxTransport;
  let transport = transports.get(config.smtpUrl);
  if (!transport) {
    transport = smtpTransport(config.smtpUrl, new URL(config.baseUrl).hostname);
    transports.set(config.smtpUrl, transport);
  }
  return transport;
}

/** `"Organization name" <noreply@…>`: the seller is the sender. */
function fromAddress(config: Pick<Config, 'mailFrom'>, row: EmailRow & { organization_name?: string | null }): string {
  const name = row.organization_name ? oneLine(row.organization_name).replace(/["\\]/g, '') : '';
  return name ? `"${name}" <${config.mailFrom}>` : config.mailFrom;
}

export type SendOutcome = 'sent' | 'retry' | 'failed' | 'none';

/**
 * Claims and sends one email (`id`'s, or the oldest due one). 'none': nothing to send (already sent,
 * leased by another sender, or not due).
 */
export async function sendOneEmail(ctx: Context, run: JobRun, id?: string): Promise<SendOutcome> {
  const clock = serverClock(ctx.clock);
  const claimed = await run.transaction(async (tx) => {
    const now = clock.now();
    const row = await claimEmail(tx.db, { id, now, leaseUntil: new Date(now.getTime() + LEASE_SECONDS * 1000) });
    if (!row) return undefined;
    const organizationName = row.organization_id ? await findOrganizationName(tx.db, row.organization_id) : undefined;
    return { ...row, organization_name: organizationName ?? null };
  });
  if (!claimed) return 'none';

  const transport = mailTransport(ctx.config);
  let failure: unknown;
  try {
    await transport.send({
      id: claimed.id,
      from: fromAddress(ctx.config, claimed),
      to: claimed.to_addresses,
      subject: claimed.subject,
      text: claimed.text_body,
      html: claimed.html_body,
    });
  } catch (error) {
    failure = error;
  }

  return run.transaction(async (tx) => {
    const now = clock.now();
    if (failure === undefined) {
      await markEmailSent(tx.db, claimed.id, now, transport.name);
      ctx.log.info({ email_id: claimed.id, template: claimed.template, transport: transport.name }, 'email sent');
      return 'sent';
    }
    const message = failure instanceof Error ? failure.message : String(failure);
    const next = nextAttemptAt(claimed.attempts, now, isPermanentFailure(failure));
    await markEmailAttemptFailed(tx.db, claimed.id, { error: message, nextAttemptAt: next });
    // The message only: an SMTP error never carries the body (the sign-in code stays out of the logs).
    ctx.log.warn(
      { email_id: claimed.id, attempts: claimed.attempts, retry_at: next?.toISOString() ?? null, error: message },
      next ? 'email not sent, will retry' : 'email not sent, given up',
    );
    return next ? 'retry' : 'failed';
  });
}

const SendEmailData = z.object({ email_id: z.uuid() });

/** Enqueued with the row (platform/mail/outbox.ts): sends it right after the commit. */
export const sendEmailJob = defineJob<z.infer<typeof SendEmailData>>({
  name: 'mail.send',
  schema: SendEmailData,
  // No transaction may span the SMTP conversation.
  transaction: false,
  // Failures are recorded on the row and retried by the sweep, not by the queue.
  retryLimit: 0,
  expireInSeconds: LEASE_SECONDS,
  async handle(ctx, data, run) {
    await sendOneEmail(ctx, run ?? runIn(ctx), data.email_id);
  },
});

/** Sends what is due and nobody is sending: retries, and rows whose job was lost with a crash. */
export const sweepEmailsJob = defineJob<Record<string, never>>({
  name: 'mail.sweep',
  schema: z.object({}),
  transaction: false,
  retryLimit: 1,
  expireInSeconds: LEASE_SECONDS,
  async handle(ctx, _data, run) {
    const runner = run ?? runIn(ctx);
    for (let i = 0; i < SWEEP_BATCH; i++) {
      if ((await sendOneEmail(ctx, runner)) === 'none') return;
    }
    if ((await countDueEmails(ctx.db, serverClock(ctx.clock).now())) > 0) await ctx.jobs.enqueue(sweepEmailsJob, {});
  },
});

export const sweepEmailsSchedule: PeriodicTask = { job: sweepEmailsJob, everySeconds: SWEEP_EVERY_SECONDS };
