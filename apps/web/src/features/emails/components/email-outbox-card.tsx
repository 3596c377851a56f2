import type { OutboxEmail } from '@tessera/sdk';
import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { formatDateTime } from '../../../lib/format';
import { useEmails } from '../api/get-emails';

const STATUS: Record<OutboxEmail['status'], { label: string; tone: BadgeTone }> = {
  pending: { label: 'Waiting', tone: 'warning' },
  sent: { label: 'Sent', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
};

function statusOf(email: OutboxEmail) {
  if (email.status === 'sent' && email.transport === 'outbox') return { label: 'In the outbox', tone: 'info' as const };
  return STATUS[email.status];
}

/**
 * The organization's outgoing emails (servers outside production only; elsewhere the card is not
 * shown). Without SMTP_URL nothing leaves the server: this is where a developer reads the receipts and
 * sign-in codes customers would get.
 */
export function EmailOutboxCard({ organizationId }: { organizationId: string }) {
  const [page, setPage] = useState(1);
  const emails = useEmails(organizationId, page);
  if (emails.isError)
    return (
      <Card aria-labelledby="email-outbox-title">
        <CardTitle>
          <span id="email-outbox-title">Emails outbox</span>
        </CardTitle>
        <ApiErrorAlert error={emails.error} />
      </Card>
    );
  if (!emails.data) return null;
  const { items, pagination } = emails.data;
  return (
    <Card aria-labelledby="email-outbox-title">
      <CardTitle>
        <span id="email-outbox-title">Emails outbox</span>
      </CardTitle>
      <p className="mb-3 text-sm text-slate-600">
        Outside production, every email this organization sends is listed here, newest first. Without an SMTP server
        configured (SMTP_URL) they stay here and reach nobody.
      </p>
      {items.length === 0 ? (
        <p className="text-sm text-slate-600">No emails yet.</p>
      ) : (
        <ul className="divide-y divide-slate-200" aria-label="Emails">
          {items.map((email) => {
            const status = statusOf(email);
            return (
              <li key={email.id} className="py-3">
                <details>
                  <summary className="cursor-pointer list-none">
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <span className="font-medium text-slate-900">{email.subject}</span>
                      <Badge tone={status.tone}>{status.label}</Badge>
                    </div>
                    <div className="mt-1 text-xs text-slate-600">
                      To {email.to.join(', ')} · {formatDateTime(email.created_at)}
                      {email.last_error ? ` · last error: ${email.last_error}` : ''}
                    </div>
                  </summary>
                  <pre className="mt-2 overflow-x-auto whitespace-pre-wrap rounded bg-slate-50 p-3 text-xs text-slate-800">
                    {email.text_body}
                  </pre>
                </details>
              </li>
            );
          })}
        </ul>
      )}
      {pagination.max_page > 1 ? (
        <div className="mt-3 flex items-center gap-2">
          <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Newer
          </Button>
          <span className="text-sm text-slate-600">
            Page {page} of {pagination.max_page}
          </span>
          <Button
            variant="secondary"
            size="sm"
            disabled={page >= pagination.max_page}
            onClick={() => setPage(page + 1)}
          >
            Older
          </Button>
        </div>
      ) : null}
    </Card>
  );
}
