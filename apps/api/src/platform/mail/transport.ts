import type { Transporter } from 'nodemailer';

/** One message as the sender hands it to a transport. */
export interface OutgoingMessage {
  /** The outbox row's id: the Message-ID, so a receiver can recognise a resend after a crash. */
  id: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string | null;
}

export interface MailTransport {
  /** Stored on the row once sent: 'smtp' or 'outbox'. */
  readonly name: string;
  send(message: OutgoingMessage): Promise<void>;
  close(): void;
}

/** An SMTP failure the server said is permanent (5xx): retrying would get the same answer. */
export function isPermanentFailure(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/**
 * No `SMTP_URL`: nothing leaves the machine. The row itself is the delivered message, marked sent with
 * transport 'outbox' and read with `tessera mail list` or the dashboard's development page.
 */
export const outboxTransport: MailTransport = {
  name: 'outbox',
  async send() {},
  close() {},
};

/**
 * SMTP through nodemailer (`SMTP_URL`, e.g. smtps://user:password@smtp.example.com:465), loaded at the
 * first message rather than at every start.
 */
export function smtpTransport(url: string, messageIdDomain: string): MailTransport {
  let transporter: Promise<Transporter> | undefined;
  let opened: Transporter | undefined;
  const open = () =>
    (transporter ??= import('nodemailer').then(
      ({ default: nodemailer }) => (opened = nodemailer.createTransport(url)),
    ));
  return {
    name: 'smtp',
    async send(message) {
      await (
        await open()
      ).sendMail({
        messageId: `<${message.id}@${messageIdDomain}>`,
        from: message.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
      });
    },
    close() {
      opened?.close();
    },
  };
}
