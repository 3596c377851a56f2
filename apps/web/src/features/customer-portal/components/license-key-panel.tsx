import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { DetailRow } from '../../../components/ui/detail-row';
import { Loading } from '../../../components/ui/spinner';
import { Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useLicenseKey } from '../api/get-license-key';
import { expiryWords, LICENSE_KEY_STATUS, usageWords } from '../logic/benefit-grants';

/**
 * A license key: masked until asked for (it is a secret a screen share would leak), copied whole, with
 * its limits and the devices it is activated on.
 */
export function LicenseKeyPanel({ licenseKeyId }: { licenseKeyId: string }) {
  const licenseKey = useLicenseKey(licenseKeyId);
  const [revealed, setRevealed] = useState(false);

  if (licenseKey.isPending) return <Loading label="Loading your license key…" />;
  if (licenseKey.isError) return <ApiErrorAlert error={licenseKey.error} />;
  const key = licenseKey.data;
  const status = LICENSE_KEY_STATUS[key.status];
  return (
    <div className="space-y-4">
      <div>
        <p className="text-sm font-medium text-slate-600">License key</p>
        <div className="mt-1 flex flex-wrap items-center gap-2">
          <code
            aria-label={revealed ? 'License key' : 'License key, hidden'}
            className="rounded-md bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900"
          >
            {revealed ? key.key : key.display_key}
          </code>
          <Button variant="secondary" size="sm" aria-pressed={revealed} onClick={() => setRevealed(!revealed)}>
            {revealed ? 'Hide key' : 'Show key'}
          </Button>
          <CopyButton value={key.key} label="Copy key" />
        </div>
      </div>
      <dl className="divide-y divide-slate-100">
        <DetailRow label="Status">
          <Badge tone={status.tone}>{status.label}</Badge>
        </DetailRow>
        <DetailRow label="Activations">{usageWords(key.activations.length, key.limit_activations)}</DetailRow>
        <DetailRow label="Usage">{usageWords(key.usage, key.limit_usage)}</DetailRow>
        <DetailRow label="Expires">{expiryWords(key.expires_at, new Date())}</DetailRow>
        <DetailRow label="Last validated">{formatDateTime(key.last_validated_at)}</DetailRow>
      </dl>
      <section aria-label="Activations">
        <h4 className="mb-2 text-sm font-semibold text-slate-900">Activated devices</h4>
        {key.activations.length === 0 ? (
          <p className="text-sm text-slate-600">This key is not activated on any device yet.</p>
        ) : (
          <Table label="Activated devices">
            <TableHead>
              <Th>Device</Th>
              <Th>Activated</Th>
            </TableHead>
            <tbody>
              {key.activations.map((activation) => (
                <Tr key={activation.id}>
                  <Td>{activation.label}</Td>
                  <Td>{formatDate(activation.created_at)}</Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        )}
      </section>
    </div>
  );
}
