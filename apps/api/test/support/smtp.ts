import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  parsed: ParsedMail;
}

export interface TestSmtpServer {
  url: string;
  received: ReceivedMail[];
  /**
   * The answer to the next messages: undefined accepts; a number refuses the message with that SMTP
   * code (451: try later; 550: refused for good).
   */
  refuseWith: number | undefined;
  /** Resolves with the first message received (now or later) that `match` accepts. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** A local SMTP server (the `smtp-server` package) that keeps every message it accepts, parsed. */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const waiters = new Set<{ match: (mail: ReceivedMail) => boolean; resolve: (mail: ReceivedMail) => void }>();
  const state: TestSmtpServer = {
    url: '',
    received,
    refuseWith: undefined,
    waitFor(match, timeoutMs = 20_000) {
      const found = received.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = {
          match,
          resolve: (mail: ReceivedMail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching message within ${timeoutMs} ms (${received.length} received)`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback: (error?: Error | null) => void) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (state.refuseWith !== undefined) {
          const error = new Error('refused by the test') as Error & { responseCode: number };
          error.responseCode = state.refuseWith;
          callback(error);
          return;
        }
        void simpleParser(Buffer.concat(chunks)).then((parsed) => {
          const mail: ReceivedMail = {
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            },
            parsed,
          };
          received.push(mail);
          for (const waiter of waiters) {
            if (waiter.match(mail)) {
              waiters.delete(waiter);
              waiter.resolve(mail);
            }
          }
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  state.url = `smtp://127.0.0.1:${port}`;
  return state;
}
