import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import type { Config } from '../../config.js';
import type { Clock } from '../../platform/clock.js';
import type { Context } from '../../platform/context.js';
import type { Db, Executor } from '../../platform/db/database.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { PaymentProcessor } from '../../platform/payments/processor.js';
import { handleStripeEvent } from './stripe-webhooks.service.js';

export const STRIPE_WEBHOOK_PATH = '/v1/integrations/stripe/webhook';

export interface StripeWebhookDeps {
  db: Db;
  config: Config;
  clock: Clock;
  jobs: JobQueue;
  payments?: PaymentProcessor;
}

const json = 'application/json; charset=utf-8';

/**
 * `POST /v1/integrations/stripe/webhook`: Stripe's events, registered when STRIPE_WEBHOOK_SECRET is set.
 * Not part of the API contract (Stripe calls it, not clients): a plain route outside the OpenAPI
 * document. The `Stripe-Signature` header is verified over the raw body with the endpoint's signing
 * secret (400 otherwise, nothing done); each event is handled once by its id. No transaction is held
 * open by the route itself: the handling opens short ones.
 */
export function registerStripeWebhookRoute(app: FastifyInstance, deps: StripeWebhookDeps): void {
  const secret = deps.config.stripeWebhookSecret;
  if (!secret) return;
  void app.register(async (scoped) => {
    // The signature covers the exact bytes Stripe sent: the body is kept as text.
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    scoped.post(STRIPE_WEBHOOK_PATH, async (request, reply) => {
      const signature = request.headers['stripe-signature'];
      let event: Stripe.Event;
      try {
        if (typeof signature !== 'string' || typeof request.body !== 'string') throw new Error('missing signature');
        // Loaded at the first event: a start does not load the Stripe library.
        const { verifyStripeWebhook } = await import('../../platform/payments/stripe.js');
        event = verifyStripeWebhook(request.body, signature, secret);
      } catch {
        return reply
          .code(400)
          .type(json)
          .send(JSON.stringify({ error: 'BadRequest', detail: 'Invalid Stripe signature.' }));
      }
      const contextOf = (db: Executor): Context => ({
        db,
        clock: deps.clock,
        subject: { kind: 'anonymous' },
        jobs: deps.jobs.bind(db),
        config: deps.config,
        log: request.log,
        payments: deps.payments,
      });
      const run = {
        transaction: <R>(fn: (ctx: Context) => Promise<R>) => deps.db.transaction().execute((tx) => fn(contextOf(tx))),
      };
      const outcome = await handleStripeEvent({ ...contextOf(deps.db), transactions: run }, run, event);
      request.log.info({ stripeEvent: event.id, type: event.type, outcome }, 'stripe event received');
      return reply
        .code(200)
        .type(json)
        .send(JSON.stringify({ received: true }));
    });
  });
}
