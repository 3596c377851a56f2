import type { LicenseKeyWithActivations } from '@tessera/sdk';
import { useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';
import { Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
import { TextLink } from '../../../components/ui/text-link';
import { formatDateTime } from '../../../lib/format';
import { formatUsage, LicenseKeyStatusBadge } from './license-key-status';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[10rem_1fr]">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="text-sm text-slate-900">{children}</dd>
    </div>
  );
}

/** The full key stays masked until asked for, so it does not end up in a screen share by accident. */
function KeyValue({ licenseKey }: { licenseKey: LicenseKeyWithActivations }) {
  const [isRevealed, setIsRevealed] = useState(false);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <code aria-label="License key" className="rounded bg-slate-100 px-2 py-1 font-mono text-sm break-all">
        {isRevealed ? licenseKey.key : licenseKey.display_key}
      </code>
      <Button variant="ghost" size="sm" aria-pressed={isRevealed} onClick={() => setIsRevealed(!isRevealed)}>
        {isRevealed ? 'Hide key' : 'Show key'}
      </Button>
      <CopyButton value={licenseKey.key} label="Copy key" />
    </div>
  );
}

export interface LicenseKeyDetailsProps {
  licenseKey: LicenseKeyWithActivations;
  benefitName: string | undefined;
  customerPath: string;
}

export function LicenseKeyDetails({ licenseKey, benefitName, customerPath }: LicenseKeyDetailsProps) {
  return (
    <Card aria-label="Key details">
      <CardTitle>Details</CardTitle>
      <dl className="divide-y divide-slate-100">
        <Row label="Key">
          <KeyValue licenseKey={licenseKey} />
        </Row>
        <Row label="Status">
          <LicenseKeyStatusBadge status={licenseKey.status} />
        </Row>
        <Row label="Customer">
          <TextLink to={customerPath}>
            {licenseKey.customer.name ? `${licenseKey.customer.name} · ` : ''}
            {licenseKey.customer.email}
          </TextLink>
        </Row>
        <Row label="Benefit">{benefitName ?? '—'}</Row>
        <Row label="Usage">{formatUsage(licenseKey.usage, licenseKey.limit_usage)}</Row>
        <Row label="Activations">{formatUsage(licenseKey.activations.length, licenseKey.limit_activations)}</Row>
        <Row label="Validations">
          {licenseKey.validations}
          {licenseKey.last_validated_at ? ` · last ${formatDateTime(licenseKey.last_validated_at)}` : ''}
        </Row>
        <Row label="Expires">{licenseKey.expires_at ? formatDateTime(licenseKey.expires_at) : 'Never'}</Row>
        <Row label="Issued">{formatDateTime(licenseKey.created_at)}</Row>
      </dl>
    </Card>
  );
}

export function LicenseKeyActivations({ licenseKey }: { licenseKey: LicenseKeyWithActivations }) {
  return (
    <Card aria-label="Activations">
      <CardTitle>Activations</CardTitle>
      {licenseKey.activations.length === 0 ? (
        <p className="text-sm text-slate-600">
          No activations yet. Your software activates the key on a device through the license key API.
        </p>
      ) : (
        <Table label="Activations">
          <TableHead>
            <Th>Label</Th>
            <Th>Details</Th>
            <Th>Activated</Th>
          </TableHead>
          <tbody>
            {licenseKey.activations.map((activation) => {
              const meta = Object.entries(activation.meta);
              return (
                <Tr key={activation.id}>
                  <Td className="font-medium">{activation.label}</Td>
                  <Td>
                    {meta.length === 0 ? (
                      '—'
                    ) : (
                      <dl className="flex flex-wrap gap-x-4 gap-y-1">
                        {meta.map(([name, value]) => (
                          <div key={name} className="flex gap-1">
                            <dt className="text-slate-600">{name}:</dt>
                            <dd className="font-mono">{String(value)}</dd>
                          </div>
                        ))}
                      </dl>
                    )}
                  </Td>
                  <Td>{formatDateTime(activation.created_at)}</Td>
                </Tr>
              );
            })}
          </tbody>
        </Table>
      )}
    </Card>
  );
}
