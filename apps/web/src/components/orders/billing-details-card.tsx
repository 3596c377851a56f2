import type { ReactNode } from 'react';
import { formatAddressLines, type PostalAddress } from '../../lib/format';
import { Card, CardTitle } from '../ui/card';
import { DetailRow } from '../ui/detail-row';

export interface BillingDetailsCardProps {
  title: string;
  name: string | null;
  address: PostalAddress | null;
  /** Under the details: a way to change them, where the reader may. */
  action?: ReactNode;
}

/** Who an order was billed to: the name and address printed on its invoice. */
export function BillingDetailsCard({ title, name, address, action }: BillingDetailsCardProps) {
  return (
    <Card>
      <CardTitle>{title}</CardTitle>
      <dl className="divide-y divide-slate-100">
        <DetailRow label="Name">{name ?? '—'}</DetailRow>
        <DetailRow label="Address">
          {address ? (
            <address className="not-italic">
              {formatAddressLines(address).map((line) => (
                <div key={line}>{line}</div>
              ))}
            </address>
          ) : (
            '—'
          )}
        </DetailRow>
      </dl>
      {action && <div className="mt-3">{action}</div>}
    </Card>
  );
}
