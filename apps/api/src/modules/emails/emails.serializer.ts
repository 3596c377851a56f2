import type { z } from 'zod/v4';
import { iso } from '../../platform/http/schemas.js';
import type { EmailRow } from '../../platform/mail/mail.repository.js';
import type { OutboxEmail } from './emails.schemas.js';

export function serializeOutboxEmail(row: EmailRow): z.input<typeof OutboxEmail> {
  return {
    id: row.id,
    created_at: iso(row.created_at),
    organization_id: row.organization_id,
    to: row.to_addresses,
    subject: row.subject,
    template: row.template,
    text_body: row.text_body,
    html_body: row.html_body,
    status: row.status,
    attempts: row.attempts,
    sent_at: iso(row.sent_at),
    transport: row.transport,
    last_error: row.last_error,
  };
}
