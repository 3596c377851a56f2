import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

/**
 * Serves one PGlite database to many PostgreSQL wire-protocol connections on a unix socket.
 *
 * PGlite is a single session, so connections take turns. A turn is never cut in the middle of what
 * PostgreSQL treats as one unit: a client keeps the database from its first message until the end of
 * its extended-protocol sequence (Sync) or simple query, and for as long as a transaction it opened is
 * in progress. Interleaving messages of two connections between Parse and Sync would clobber the
 * unnamed portal and hand one connection's rows to another, so the turn is the unit of isolation.
 */

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

/** Message types after which a connection may give up its turn (the server answers ReadyForQuery). */
const END_OF_UNIT = new Set(['S'.charCodeAt(0), 'Q'.charCodeAt(0)]);
const TERMINATE = 'X'.charCodeAt(0);
const NOTIFICATION_RESPONSE = 'A'.charCodeAt(0);

/** Who holds or waits for the database: a wire connection, or this process itself (LISTEN). */
type TurnHolder = object;

class Turns {
  private owner: TurnHolder | null = null;
  private readonly waiting: { connection: TurnHolder; wake: () => void }[] = [];

  async acquire(connection: TurnHolder): Promise<void> {
    if (this.owner === connection) return;
    if (this.owner === null && this.waiting.length === 0) {
      this.owner = connection;
      return;
    }
    await new Promise<void>((wake) => this.waiting.push({ connection, wake }));
  }

  release(connection: TurnHolder): void {
    if (this.owner !== connection) return;
    const next = this.waiting.shift();
    this.owner = next?.connection ?? null;
    next?.wake();
  }

  /** A closed connection leaves the line (and, if it held the turn, passes it on). */
  forget(connection: TurnHolder): void {
    const index = this.waiting.findIndex((w) => w.connection === connection);
    if (index >= 0) this.waiting.splice(index, 1)[0]!.wake();
    this.release(connection);
  }

  holds(connection: TurnHolder): boolean {
    return this.owner === connection;
  }
}

/**
 * Reads the backend's messages as they stream to a client and hands NotificationResponse messages
 * (channel and payload) to `emit`. PGlite is one session: a NOTIFY committed by any client reaches the
 * session's own LISTEN as a message in that client's stream, which is where this process picks it up.
 * Only message headers are looked at; bodies other than notifications are skipped over.
 */
class NotificationScanner {
  private header = Buffer.alloc(0);
  private remaining = 0;
  private capture: Buffer[] | undefined;

  constructor(private readonly emit: (channel: string, payload: string) => void) {}

  feed(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.remaining === 0) {
        const take = Math.min(5 - this.header.length, chunk.length - at);
        this.header = Buffer.concat([this.header, chunk.subarray(at, at + take)]);
        at += take;
        if (this.header.length < 5) return;
        this.remaining = this.header.readInt32BE(1) - 4;
        this.capture = this.header[0] === NOTIFICATION_RESPONSE ? [] : undefined;
        this.header = Buffer.alloc(0);
        if (this.remaining === 0) this.finish();
        continue;
      }
      const take = Math.min(this.remaining, chunk.length - at);
      this.capture?.push(Buffer.from(chunk.subarray(at, at + take)));
      at += take;
      this.remaining -= take;
      if (this.remaining === 0) this.finish();
    }
  }

  private finish(): void {
    if (!this.capture) return;
    // int32 process id, then channel and payload as NUL-terminated strings.
    const body = Buffer.concat(this.capture);
    this.capture = undefined;
    const channelEnd = body.indexOf(0, 4);
    const payloadEnd = body.indexOf(0, channelEnd + 1);
    this.emit(body.toString('utf8', 4, channelEnd), body.toString('utf8', channelEnd + 1, payloadEnd));
  }
}

type NotificationListener = (channel: string, payload: string) => void;

class Connection {
  private buffer = Buffer.alloc(0);
  private started = false;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly socket: Socket,
    private readonly db: PGlite,
    private readonly turns: Turns,
    private readonly onError: (error: unknown) => void,
    private readonly notifications: NotificationScanner,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (data) => {
      this.buffer = Buffer.concat([this.buffer, data]);
      // Messages are handled strictly in arrival order, one at a time per connection.
      this.chain = this.chain.then(() => this.drain()).catch((error) => this.fail(error));
    });
    socket.on('error', () => void this.close());
    socket.on('close', () => void this.close());
  }

  private async drain(): Promise<void> {
    while (!this.closed) {
      if (!this.started) {
        if (this.buffer.length < 8) return;
        const length = this.buffer.readInt32BE(0);
        if (this.buffer.length < length) return;
        const code = this.buffer.readInt32BE(4);
        const message = this.buffer.subarray(0, length);
        this.buffer = this.buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          this.socket.write('N');
          continue;
        }
        if (code === CANCEL_REQUEST) {
          this.socket.end();
          return;
        }
        if (code !== PROTOCOL_3) throw new Error(`unsupported protocol ${code}`);
        await this.run(message, true);
        this.started = true;
        continue;
      }
      if (this.buffer.length < 5) return;
      const length = this.buffer.readInt32BE(1) + 1;
      if (this.buffer.length < length) return;
      const type = this.buffer[0]!;
      const message = this.buffer.subarray(0, length);
      this.buffer = this.buffer.subarray(length);
      if (type === TERMINATE) {
        this.socket.end();
        return;
      }
      await this.run(message, END_OF_UNIT.has(type));
    }
  }

  private async run(message: Buffer, endOfUnit: boolean): Promise<void> {
    await this.turns.acquire(this);
    if (this.closed) return;
    await this.db.runExclusive(() =>
      this.db.execProtocolRawStream(new Uint8Array(message), {
        onRawData: (chunk) => {
          // The chunk is a view into PGlite's memory, reused once this callback returns: copy it, or a
          // write that waits in the socket's buffer (a large result) sends overwritten bytes.
          this.notifications.feed(chunk);
          if (!this.socket.destroyed) this.socket.write(Buffer.from(chunk));
        },
      }),
    );
    if (endOfUnit && !this.db.isInTransaction()) this.turns.release(this);
  }

  private fail(error: unknown): void {
    this.onError(error);
    this.socket.destroy();
    void this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // A client that vanished mid-transaction must not keep the database: roll it back.
    if (this.turns.holds(this) && this.db.isInTransaction()) {
      // (exec takes PGlite's own lock; we already hold the turn, so nobody else is mid-message.)
      await this.db.exec('ROLLBACK').catch(this.onError);
    }
    this.turns.forget(this);
  }
}

export class PGliteServer {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly turns = new Turns();
  private readonly listeners = new Set<NotificationListener>();

  constructor(
    private readonly db: PGlite,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  async listen(path: string): Promise<void> {
    const server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      const scanner = new NotificationScanner((channel, payload) => {
        for (const listener of this.listeners) listener(channel, payload);
      });
      new Connection(socket, this.db, this.turns, this.onError, scanner);
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
  }

  /**
   * Calls `listener` for every notification on `channel` committed by any client: the in-process
   * counterpart of a LISTEN connection. LISTEN runs in a turn of its own, never inside a client's
   * transaction. Returns the function that stops listening (the session keeps its LISTEN: harmless).
   */
  async onNotification(channel: string, listener: (payload: string) => void): Promise<() => void> {
    const self = {};
    await this.turns.acquire(self);
    try {
      await this.db.exec(`LISTEN "${channel.replaceAll('"', '""')}"`);
    } finally {
      this.turns.release(self);
    }
    const wrapped: NotificationListener = (name, payload) => {
      if (name === channel) listener(payload);
    };
    this.listeners.add(wrapped);
    return () => this.listeners.delete(wrapped);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
