import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ManualClock } from '../src/platform/clock.js';
import type { JobRun } from '../src/platform/jobs/queue.js';
import { beforeCommit } from '../src/platform/db/commit-hooks.js';
import { queueEmail } from '../src/platform/mail/outbox.js';
import { sendOneEmail } from '../src/platform/mail/sender.js';
import { REPO_ROOT } from '../src/paths.js';
import { recordWebhookEvent } from '../src/platform/events.js';
import { purchaseFactory } from './factories/benefit-grants.js';
import { subscriptionFactory } from './factories/subscriptions.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { bearer, json, startTestServer, usingServerDatabase, type TestServer } from './harness.js';
import { startSmtpServer, type TestSmtpServer } from './support/smtp.js';

/**
 * The mail layer end to end: emails written with the change that causes them, sent by the worker to a
 * real SMTP server started here (SMTP_URL pointing at it), retried, never sent twice once marked; the
 * seller's settings; the outbox as `tessera mail list` shows it.
 */
let smtp: TestSmtpServer;
let server: TestServer;
let acme: OrganizationFixture;
let dataDir: string | undefined;

beforeAll(async () => {
  smtp = await startSmtpServer();
  // The CLI test joins this server's embedded database through its socket (or the server database).
  dataDir = usingServerDatabase() ? undefined : mkdtempSync(join(tmpdir(), 'tessera-mail-'));
  server = await startTestServer({ dataDir, config: { smtpUrl: smtp.url, mailFrom: 'billing@tessera.test' } });
  acme = await organizationFactory(server, { name: 'Acme Tools' });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const db = () => server.runtime.database.db;

/** Short transactions on the pool, as the queue gives a `transaction: false` job. */
const run: JobRun = {
  transaction: (fn) =>
    db()
      .transaction()
      .execute((tx) => fn(server.runtime.context(tx))),
};

async function emailRows(to: string) {
  const rows = await db().selectFrom('emails').selectAll().orderBy('created_at').execute();
  return rows.filter((row) => row.to_addresses.includes(to));
}

function uniqueBuyer(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

describe('receipts', () => {
  it('sends the receipt of a paid order to the buyer through SMTP, and marks it sent', async () => {
    const buyer = uniqueBuyer('receipt');
    const purchase = await purchaseFactory(server, acme, [], { email: buyer });

    const mail = await smtp.waitFor((m) => m.envelope.to.includes(buyer));
    const product = await db()
      .selectFrom('products')
      .select('name')
      .where('id', '=', purchase.productId)
      .executeTakeFirstOrThrow();
    expect(mail.parsed.subject).toBe(`Your Acme Tools receipt: ${product.name}`);
    expect(mail.parsed.from?.value[0]).toMatchObject({ name: 'Acme Tools', address: 'billing@tessera.test' });
    const text = mail.parsed.text ?? '';
    expect(text).toContain(`Thank you for your purchase of ${product.name}`);
    expect(text).toMatch(/Total\s+\$\d+\.\d{2}/);
    expect(text).toContain(`/portal/${acme.organization.slug}/orders/${purchase.orderId}`);
    expect(mail.parsed.html).toContain('Acme Tools');
    expect(mail.parsed.html).toContain(`/portal/${acme.organization.slug}/orders/${purchase.orderId}`);

    // Marked sent (after the message was accepted), once; the Message-ID is the row's id.
    await expect
      .poll(async () => (await emailRows(buyer)).map((row) => [row.template, row.status, row.transport, row.attempts]))
      .toEqual([['order_receipt', 'sent', 'smtp', 1]]);
    const [row] = await emailRows(buyer);
    expect(mail.parsed.messageId).toBe(`<${row!.id}@127.0.0.1>`);
    expect(row!.sent_at).not.toBeNull();
    // A sent row is never claimed again.
    expect(await sendOneEmail(server.context(), run, row!.id)).toBe('none');
    expect(smtp.received.filter((m) => m.envelope.to.includes(buyer))).toHaveLength(1);
  });

  it('sends nothing when the seller turned the order confirmation off', async () => {
    const patch = (payload: object, token = acme.token) =>
      server.inject({
        method: 'PATCH',
        url: `/v1/organizations/${acme.organization.id}`,
        headers: bearer(token),
        payload,
      });
    // Bad input changes nothing.
    const bad = await patch({ customer_email_settings: { order_confirmation: 'no' } });
    expect(bad.statusCode).toBe(422);
    expect(json(bad).detail[0].loc).toEqual(['body', 'customer_email_settings', 'order_confirmation']);
    const readOnly = await tokenFactory(server, acme.organization.id, ['organizations:read']);
    expect((await patch({ customer_email_settings: { order_confirmation: false } }, readOnly)).statusCode).toBe(403);

    const updated = await patch({ customer_email_settings: { order_confirmation: false } });
    expect(updated.statusCode).toBe(200);
    expect(json(updated).customer_email_settings).toEqual({
      order_confirmation: false,
      subscription_cycled: true,
      subscription_past_due: true,
      subscription_cancellation: true,
      subscription_revoked: true,
      order_refunded: true,
      // The reference's keys for emails Tessera does not send: kept, on by default.
      subscription_confirmation: true,
      subscription_cycled_after_trial: true,
      subscription_paused: true,
      subscription_resumed: true,
      subscription_renewal_reminder: true,
      subscription_trial_conversion_reminder: true,
      subscription_uncanceled: true,
      subscription_updated: true,
    });
    // Settings merge: another key later leaves this one off.
    await patch({ customer_email_settings: { order_refunded: false } });
    const read = json(
      await server.inject({
        method: 'GET',
        url: `/v1/organizations/${acme.organization.id}`,
        headers: bearer(acme.token),
      }),
    );
    expect(read.customer_email_settings).toMatchObject({ order_confirmation: false, order_refunded: false });

    try {
      const buyer = uniqueBuyer('muted');
      await purchaseFactory(server, acme, [], { email: buyer });
      // The email would have been written with the order, in the same transaction: there is none.
      expect(await emailRows(buyer)).toEqual([]);
    } finally {
      await patch({ customer_email_settings: { order_confirmation: true, order_refunded: true } });
    }
  });
});

describe('sign-in codes', () => {
  it('emails a code that opens the portal', async () => {
    const buyer = uniqueBuyer('signin');
    await purchaseFactory(server, acme, [], { email: buyer });
    const requested = await server.inject({
      method: 'POST',
      url: '/v1/customer-portal/customer-session/request',
      payload: { email: buyer, organization_id: acme.organization.id },
    });
    expect(requested.statusCode).toBe(202);
    const mail = await smtp.waitFor(
      (m) => m.envelope.to.includes(buyer) && /sign-in code/.test(m.parsed.subject ?? ''),
    );
    expect(mail.parsed.subject).toBe('Your sign-in code for Acme Tools');
    const code = /is:\s+([A-Z0-9]{6})/.exec(mail.parsed.text ?? '')![1]!;
    expect(mail.parsed.html).toContain(`>${code}</p>`);

    const authenticated = await server.inject({
      method: 'POST',
      url: '/v1/customer-portal/customer-session/authenticate',
      payload: { code },
    });
    expect(authenticated.statusCode).toBe(200);
    const me = await server.inject({
      method: 'GET',
      url: '/v1/customer-portal/customers/me',
      headers: bearer(json(authenticated).token),
    });
    expect(json(me).email).toBe(buyer);
  });
});

describe('sending', () => {
  async function queue(to: string): Promise<string> {
    // Written without its job running first: the worker may send it at any time, so the tests below
    // hold the SMTP answer they need before queueing.
    return (await db()
      .transaction()
      .execute((tx) =>
        queueEmail(server.runtime.context(tx), {
          organizationId: acme.organization.id,
          to,
          template: 'payment_recovered',
          data: { customerName: null, productName: 'Pro', subscriptionUrl: 'http://x.test/s' },
        }),
      ))!;
  }

  it('retries a message the server refused for now, with backoff, and sends it once', async () => {
    const to = uniqueBuyer('retry');
    smtp.refuseWith = 451;
    let id: string;
    try {
      id = await queue(to);
      await expect.poll(async () => (await emailRows(to))[0]?.last_error ?? null, { timeout: 20_000 }).not.toBeNull();
    } finally {
      smtp.refuseWith = undefined;
    }
    const [waiting] = await emailRows(to);
    expect(waiting).toMatchObject({ status: 'pending', sent_at: null });
    expect(waiting!.last_error).toContain('451');
    expect(waiting!.next_attempt_at!.getTime() - server.clock.now().getTime()).toBeGreaterThan(25_000);
    // Not due yet: nothing is claimed.
    expect(await sendOneEmail(server.context(), run)).toBe('none');

    (server.clock as ManualClock).advance(31_000);
    await smtp.waitFor((m) => m.envelope.to.includes(to));
    await expect.poll(async () => (await emailRows(to))[0]?.status).toBe('sent');
    expect((await emailRows(to))[0]!.attempts).toBe(2);
    expect(await sendOneEmail(server.context(), run, id)).toBe('none');
    expect(smtp.received.filter((m) => m.envelope.to.includes(to))).toHaveLength(1);
  });

  it('gives up at once on a permanent refusal (5xx)', async () => {
    const to = uniqueBuyer('refused');
    smtp.refuseWith = 550;
    try {
      await queue(to);
      await expect.poll(async () => (await emailRows(to))[0]?.status, { timeout: 20_000 }).toBe('failed');
    } finally {
      smtp.refuseWith = undefined;
    }
    const [row] = await emailRows(to);
    expect(row).toMatchObject({ attempts: 1, next_attempt_at: null, sent_at: null });
    expect(smtp.received.filter((m) => m.envelope.to.includes(to))).toHaveLength(0);
  });

  it("a transaction's emails are stored together as it commits, each sent once; none when it rolls back", async () => {
    const to = [uniqueBuyer('together-a'), uniqueBuyer('together-b'), uniqueBuyer('together-c')];
    const once = `together-${Math.random().toString(36).slice(2, 8)}`;
    await db()
      .transaction()
      .execute(async (tx) => {
        const ctx = server.runtime.context(tx);
        const recovered = (address: string, key?: string) =>
          queueEmail(ctx, {
            organizationId: acme.organization.id,
            to: address,
            template: 'payment_recovered',
            data: { customerName: null, productName: 'Pro', subscriptionUrl: 'http://x.test/s' },
            ...(key ? { once: key } : {}),
          });
        expect(await recovered(to[0]!)).toEqual(expect.any(String));
        expect(await recovered(to[1]!, once)).toEqual(expect.any(String));
        // At most one email per `once` key, also among those the transaction has not stored yet.
        expect(await recovered(to[2]!, once)).toBeNull();
        // Stored as the transaction commits: nothing yet.
        const stored = await sql`SELECT id FROM emails WHERE to_addresses && ${to}::text[]`.execute(tx);
        expect(stored.rows).toEqual([]);
      });
    for (const address of to.slice(0, 2)) {
      await smtp.waitFor((m) => m.envelope.to.includes(address));
      await expect.poll(async () => (await emailRows(address))[0]?.status).toBe('sent');
    }
    expect(await emailRows(to[2]!)).toEqual([]);

    const rolledBack = uniqueBuyer('rolled-back');
    await expect(
      db()
        .transaction()
        .execute(async (tx) => {
          await queueEmail(server.runtime.context(tx), {
            organizationId: acme.organization.id,
            to: rolledBack,
            template: 'payment_recovered',
            data: { customerName: null, productName: 'Pro', subscriptionUrl: 'http://x.test/s' },
          });
          throw new Error('abort');
        }),
    ).rejects.toThrow('abort');
    expect(await emailRows(rolledBack)).toEqual([]);
    const jobs = await sql<{ count: number }>`
      SELECT count(*)::int AS count FROM pgboss.job j
      WHERE j.name = 'mail.send' AND NOT EXISTS (SELECT 1 FROM emails e WHERE e.id = (j.data->>'email_id')::uuid)`.execute(
      db(),
    );
    expect(jobs.rows[0]!.count).toBe(0);
  });

  it('a lease held by another sender keeps the row from being sent twice at once', async () => {
    const to = uniqueBuyer('leased');
    const id = await db()
      .transaction()
      .execute(async (tx) => {
        const ctx = server.runtime.context(tx);
        const queued = await queueEmail(ctx, {
          organizationId: acme.organization.id,
          to,
          template: 'payment_recovered',
          data: { customerName: null, productName: 'Pro', subscriptionUrl: 'http://x.test/s' },
        });
        // Another sender holds it from the moment it commits (its lease runs five minutes): set as the
        // transaction commits, after the outbox stores its emails there.
        await beforeCommit(tx, 'test.lease', 30, async () => {
          await tx
            .updateTable('emails')
            .set({ sending_until: new Date(server.clock.now().getTime() + 300_000) })
            .where('id', '=', queued!)
            .execute();
        });
        return queued!;
      });
    expect(await sendOneEmail(server.context(), run, id)).toBe('none');
    // The holder died: once its lease expired, the sweep sends the row (at least once, as documented).
    (server.clock as ManualClock).advance(301_000);
    await smtp.waitFor((m) => m.envelope.to.includes(to));
    await expect.poll(async () => (await emailRows(to))[0]?.status).toBe('sent');
  });
});

describe('customer emails from events', () => {
  /** The templates sent to `to` (sorted: rows written in one transaction share their created_at). */
  async function templatesFor(to: string) {
    return (await emailRows(to)).map((row) => row.template).sort();
  }
  async function emailOf(to: string, template: string) {
    return (await emailRows(to)).find((row) => row.template === template)!;
  }

  it('a subscription canceled at period end, then revoked: canceled, then ended', async () => {
    const buyer = uniqueBuyer('sub');
    const subscription = await subscriptionFactory(server, acme.organization.id, { email: buyer });
    expect(await templatesFor(buyer)).toEqual(['order_receipt']);
    const receipt = await emailOf(buyer, 'order_receipt');
    expect(receipt.text_body).toMatch(/Your subscription renews on \w+ \d+, \d{4}\./);

    const canceled = await server.inject({
      method: 'PATCH',
      url: `/v1/subscriptions/${subscription.id}`,
      headers: bearer(acme.token),
      payload: { cancel_at_period_end: true },
    });
    expect(canceled.statusCode).toBe(200);
    expect(await templatesFor(buyer)).toEqual(['order_receipt', 'subscription_canceled']);
    const notice = await emailOf(buyer, 'subscription_canceled');
    expect(notice.subject).toMatch(/^Your Acme Tools subscription was canceled: /);
    expect(notice.text_body).toContain('You keep access until');
    expect(notice.text_body).toContain(`/portal/${acme.organization.slug}/subscriptions/${subscription.id}`);

    const revoked = await server.inject({
      method: 'DELETE',
      url: `/v1/subscriptions/${subscription.id}`,
      headers: bearer(acme.token),
    });
    expect(revoked.statusCode).toBe(200);
    expect(await templatesFor(buyer)).toEqual(['order_receipt', 'subscription_canceled', 'subscription_ended']);
  });

  it('a subscription revoked at once says only that it ended', async () => {
    const buyer = uniqueBuyer('revoked');
    const subscription = await subscriptionFactory(server, acme.organization.id, { email: buyer });
    await server.inject({ method: 'DELETE', url: `/v1/subscriptions/${subscription.id}`, headers: bearer(acme.token) });
    expect(await templatesFor(buyer)).toEqual(['order_receipt', 'subscription_ended']);
  });

  it('a renewal paid sends the renewal receipt', async () => {
    const buyer = uniqueBuyer('renewal');
    const subscription = await subscriptionFactory(server, acme.organization.id, { email: buyer });
    (server.clock as ManualClock).set(new Date(new Date(subscription.current_period_end!).getTime() + 60_000));
    await expect
      .poll(async () => templatesFor(buyer), { timeout: 30_000 })
      .toEqual(['order_receipt', 'subscription_renewal_receipt']);
    const renewal = await emailOf(buyer, 'subscription_renewal_receipt');
    expect(renewal.subject).toMatch(/^Your Acme Tools subscription was renewed: /);
    expect(renewal.text_body).toContain('The next renewal is on');
  });

  it('a refund is emailed once, when it succeeded (whichever event says so first)', async () => {
    const buyer = uniqueBuyer('refund');
    const purchase = await purchaseFactory(server, acme, [], { email: buyer });
    const refund = (status: string) => ({
      id: '00000000-0000-4000-8000-000000000001',
      status,
      amount: 400,
      tax_amount: 0,
      currency: 'usd',
      order_id: purchase.orderId,
      customer_id: purchase.customerId,
    });
    const record = (type: 'refund.created' | 'refund.updated', data: object) =>
      db()
        .transaction()
        .execute((tx) => recordWebhookEvent(server.runtime.context(tx), acme.organization.id, type, data));

    // Reported pending first: nothing yet (it may still fail).
    await record('refund.created', refund('pending'));
    expect(await templatesFor(buyer)).toEqual(['order_receipt']);
    await record('refund.updated', refund('succeeded'));
    expect(await templatesFor(buyer)).toEqual(['order_receipt', 'refund_issued']);
    const email = await emailOf(buyer, 'refund_issued');
    expect(email.subject).toBe('Acme Tools refunded $4.00');
    expect(email.text_body).toContain(`/portal/${acme.organization.slug}/orders/${purchase.orderId}`);
    // Told again (a redelivered or later update): still one email.
    await record('refund.updated', refund('succeeded'));
    expect(await templatesFor(buyer)).toEqual(['order_receipt', 'refund_issued']);
    // A refund succeeded at once is emailed on its creation; a failed one never.
    await record('refund.created', { ...refund('succeeded'), id: '00000000-0000-4000-8000-000000000002' });
    await record('refund.created', { ...refund('failed'), id: '00000000-0000-4000-8000-000000000003' });
    expect(await templatesFor(buyer)).toEqual(['order_receipt', 'refund_issued', 'refund_issued']);
  });
});

describe('GET /v1/emails/', () => {
  it('lists the organization’s outbox, newest first; auth matrix', async () => {
    const url = `/v1/emails/?organization_id=${acme.organization.id}&limit=100`;
    expect((await server.inject({ method: 'GET', url })).statusCode).toBe(401);
    const noScope = await tokenFactory(server, acme.organization.id, ['products:read']);
    expect((await server.inject({ method: 'GET', url, headers: bearer(noScope) })).statusCode).toBe(403);
    const other = await organizationFactory(server, { name: 'Other' });
    const foreign = await server.inject({
      method: 'GET',
      url: `/v1/emails/?organization_id=${acme.organization.id}`,
      headers: { ...bearer(other.token) },
    });
    // An organization token lists its own outbox: never another's.
    expect(
      json(foreign).items.every((item: { organization_id: string }) => item.organization_id === other.organization.id),
    ).toBe(true);
    expect(
      (await server.inject({ method: 'GET', url: '/v1/emails/?limit=1000', headers: bearer(acme.token) })).statusCode,
    ).toBe(422);

    const answer = await server.inject({ method: 'GET', url, headers: bearer(acme.token) });
    expect(answer.statusCode).toBe(200);
    const { items, pagination } = json(answer);
    expect(pagination.total_count).toBeGreaterThan(0);
    expect(items[0]).toMatchObject({ organization_id: acme.organization.id });
    expect(items.some((item: { template: string }) => item.template === 'order_receipt')).toBe(true);
    const times = items.map((item: { created_at: string }) => item.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });
});

describe('tessera mail list', () => {
  it.skipIf(usingServerDatabase())(
    'prints the outbox of an organization, as text and JSON',
    async () => {
      const cli = (args: string[]) =>
        new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
          const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/cli.ts', 'mail', 'list', ...args], {
            cwd: REPO_ROOT,
            env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let stdout = '';
          let stderr = '';
          child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
          child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
          const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
          child.once('close', (code) => {
            clearTimeout(timer);
            resolve({ code, stdout, stderr });
          });
        });

      const listed = await cli(['--org', acme.organization.slug, '--json', '--limit', '100']);
      expect(listed.code, listed.stderr).toBe(0);
      const { items } = JSON.parse(listed.stdout);
      expect(items.length).toBeGreaterThan(0);
      expect(
        items.every((item: { organization_slug: string }) => item.organization_slug === acme.organization.slug),
      ).toBe(true);
      const receipt = items.find((item: { template: string }) => item.template === 'order_receipt');
      expect(receipt).toMatchObject({ status: 'sent', transport: 'smtp' });
      expect(receipt.subject).toMatch(/^Your Acme Tools receipt: /);
      expect(receipt.html_body).toContain('<!doctype html>');

      const text = await cli(['--org', acme.organization.slug]);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain('sent via smtp  order_receipt');
      expect(text.stdout).toContain('subject: Your Acme Tools receipt: ');

      const unknown = await cli(['--org', 'no-such-org']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('no organization with slug "no-such-org"');
    },
    120_000,
  );
});
