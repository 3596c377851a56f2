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

class Turns {
  private owner: Connection | null = null;
  private readonly waiting: { connection: Connection; wake: () => void }[] = [];

  async acquire(connection: Connection): Promise<void> {
    if (this.owner === connection) return;
    if (this.owner === null && this.waiting.length === 0) {
      this.owner = connection;
      return;
    }
    await new Promise<void>((wake) => this.waiting.push({ connection, wake }));
  }

  release(connection: Connection): void {
    if (this.owner !== connection) return;
    const next = this.waiting.shift();
    this.owner = next?.connection ?? null;
    next?.wake();
  }

  /** A closed connection leaves the line (and, if it held the turn, passes it on). */
  forget(connection: Connection): void {
    const index = this.waiting.findIndex((w) => w.connection === connection);
    if (index >= 0) this.waiting.splice(index, 1)[0]!.wake();
    this.release(connection);
  }

  holds(connection: Connection): boolean {
    return this.owner === connection;
  }
}

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

  constructor(
    private readonly db: PGlite,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  async listen(path: string): Promise<void> {
    const server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      new Connection(socket, this.db, this.turns, this.onError);
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

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
