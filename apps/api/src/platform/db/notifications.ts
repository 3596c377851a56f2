import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Database } from './database.js';

/**
 * Notifications committed on a channel (`NOTIFY`/`pg_notify` in a transaction: delivered when, and
 * only if, it commits). On a PostgreSQL server a dedicated connection LISTENs; the embedded database
 * hands them over in-process (PGliteServer.onNotification). `listener(undefined)` says notifications
 * may have been missed (the connection dropped and came back): whoever listens should look for work.
 * A process that joined another process's embedded database gets nothing: it relies on polling.
 */
export type NotificationListener = (payload: string | undefined) => void;

export interface Listening {
  stop(): Promise<void>;
}

const RECONNECT_MS = 1_000;

export async function listenTo(
  database: Database,
  channel: string,
  listener: NotificationListener,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<Listening> {
  if (database.embedded) {
    const stop = database.embedded.onNotification ? await database.embedded.onNotification(channel, listener) : null;
    return { stop: async () => stop?.() };
  }
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client(database.connection);
    next.on('notification', (message) => {
      if (message.channel === channel) listener(message.payload ?? '');
    });
    const lost = (error?: unknown) => {
      if (client !== next || stopped) return;
      client = undefined;
      if (error) log.warn({ err: error, channel }, 'notification connection lost; reconnecting');
      next.end().catch(() => {});
      retry = setTimeout(() => void reconnect(), RECONNECT_MS);
    };
    next.on('error', lost);
    next.on('end', () => lost());
    try {
      await next.connect();
      await next.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    client = next;
  };
  const reconnect = async (): Promise<void> => {
    if (stopped) return;
    try {
      await connect();
      // Whatever was committed while nobody listened is found by looking.
      listener(undefined);
    } catch (error) {
      log.warn({ err: error, channel }, 'notification connection failed; retrying');
      retry = setTimeout(() => void reconnect(), RECONNECT_MS);
    }
  };
  await connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
