import { z } from 'zod/v4';
import { paginationQuery } from '../../platform/http/query.js';
import { DateTime, ListResource } from '../../platform/http/schemas.js';

export const EmailListQuery = z.object({
  organization_id: z.uuid().optional().meta({ description: 'The organization (users only).' }),
  ...paginationQuery,
});
export type EmailListParams = z.output<typeof EmailListQuery>;

/** Extension (development only): an email of the organization's outbox, as it was sent or will be. */
export const OutboxEmail = z
  .object({
    id: z.uuid(),
    created_at: DateTime(),
    organization_id: z.uuid().nullable(),
    to: z.array(z.string()),
    subject: z.string(),
    template: z.string().nullable(),
    text_body: z.string(),
    html_body: z.string().nullable(),
    status: z.enum(['pending', 'sent', 'failed']),
    attempts: z.int(),
    sent_at: DateTime().nullable(),
    transport: z.string().nullable().meta({ description: "'smtp', or 'outbox' when no SMTP_URL is set." }),
    last_error: z.string().nullable(),
  })
  .meta({ id: 'OutboxEmail' });

export const ListResourceOutboxEmail = ListResource(OutboxEmail, 'ListResourceOutboxEmail');
