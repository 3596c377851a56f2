import type { Customer } from '@tessera/sdk';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';
import { formatDateTime } from '../../../lib/format';
import { useCreatePortalLink } from '../api/create-portal-link';
import { portalLinkMailto } from '../logic/portal-link';

/**
 * The seller makes a customer portal link for the customer (an hour's session) and copies it or emails
 * it from their own mail client.
 */
export function CustomerPortalLink({ customer, sellerName }: { customer: Customer; sellerName: string }) {
  const create = useCreatePortalLink();
  const link = create.data;
  return (
    <Card className="mt-6">
      <CardTitle>Customer portal</CardTitle>
      <p className="text-sm text-slate-600">
        A link that signs {customer.email} in to your customer portal for an hour. Anyone with the link is signed in as
        this customer: send it to them only.
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <Button variant="secondary" size="sm" onClick={() => create.mutate(customer.id)} disabled={create.isPending}>
          {link ? 'Make a new link' : 'Make a portal link'}
        </Button>
        {link && (
          <>
            <CopyButton value={link.url} label="Copy link" />
            <a
              className="text-sm font-medium text-blue-800 underline"
              href={portalLinkMailto(customer.email, sellerName, link.url)}
            >
              Email the link
            </a>
          </>
        )}
      </div>
      {link && (
        <p className="mt-2 text-sm break-all text-slate-700">
          <span className="sr-only">Portal link: </span>
          <code className="font-mono text-xs">{link.url}</code>{' '}
          <span className="text-slate-600">(works until {formatDateTime(link.expiresAt)})</span>
        </p>
      )}
      {create.isError && <ApiErrorAlert error={create.error} />}
    </Card>
  );
}
