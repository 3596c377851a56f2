import type { Customer } from '@tessera/sdk';
import type { ReactNode } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Card, CardTitle } from '../../../components/ui/card';
import { formatAddressLines, formatCreditBalances, formatDateTime } from '../../../lib/format';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[12rem_1fr]">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="text-sm text-slate-900">{children}</dd>
    </div>
  );
}

export function CustomerDetails({ customer }: { customer: Customer }) {
  const address = customer.billing_address;
  const metadata = Object.entries(customer.metadata);
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card>
        <CardTitle>Profile</CardTitle>
        <dl className="divide-y divide-slate-100">
          <Row label="Email">
            {customer.email}{' '}
            {customer.email_verified ? <Badge tone="success">Verified</Badge> : <Badge>Unverified</Badge>}
          </Row>
          <Row label="Name">{customer.name ?? '—'}</Row>
          <Row label="External ID">{customer.external_id ?? '—'}</Row>
          <Row label="Customer ID">
            <code className="font-mono text-xs">{customer.id}</code>
          </Row>
          <Row label="Created">{formatDateTime(customer.created_at)}</Row>
          <Row label="Tax ID">{customer.tax_id ? customer.tax_id.join(' · ') : '—'}</Row>
          <Row label="Credit balance">{formatCreditBalances(customer.credit_balances) ?? '—'}</Row>
        </dl>
      </Card>
      <Card>
        <CardTitle>Billing address</CardTitle>
        {address ? (
          <address className="text-sm leading-6 text-slate-900 not-italic">
            {formatAddressLines(address).map((line) => (
              <div key={line}>{line}</div>
            ))}
          </address>
        ) : (
          <p className="text-sm text-slate-600">No billing address yet.</p>
        )}
      </Card>
      <Card className="lg:col-span-2">
        <CardTitle>Metadata</CardTitle>
        {metadata.length === 0 ? (
          <p className="text-sm text-slate-600">No metadata.</p>
        ) : (
          <dl className="divide-y divide-slate-100">
            {metadata.map(([key, value]) => (
              <Row key={key} label={key}>
                {String(value)}
              </Row>
            ))}
          </dl>
        )}
      </Card>
    </div>
  );
}
