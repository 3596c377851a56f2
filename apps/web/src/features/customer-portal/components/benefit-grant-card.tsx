import type { CustomerBenefitGrant, CustomerPortalCustomer } from '@tessera/sdk';
import type { ReactNode } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { DetailRow } from '../../../components/ui/detail-row';
import { formatDate } from '../../../lib/format';
import { accountGrantState, grantState, isGrantOf, type GrantOf, type GrantState } from '../logic/benefit-grants';
import { GrantAccountChooser } from './grant-account-chooser';
import { LicenseKeyPanel } from './license-key-panel';

export interface BenefitGrantCardProps {
  grant: CustomerBenefitGrant;
  customer: CustomerPortalCustomer;
  sellerName: string;
}

function stateOf({ grant, customer, sellerName }: BenefitGrantCardProps): GrantState {
  if (isGrantOf(grant, 'discord') || isGrantOf(grant, 'github_repository'))
    return accountGrantState(grant, customer, sellerName);
  return grantState(grant);
}

/** One benefit the customer holds: its name, its state, and what it gives (a key, a note, files…). */
export function BenefitGrantCard(props: BenefitGrantCardProps) {
  const { grant } = props;
  const state = stateOf(props);
  const titleId = `benefit-${grant.id}`;
  return (
    <Card aria-labelledby={titleId}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={titleId} className="text-base font-semibold text-slate-900">
          {grant.benefit.description}
        </h3>
        <Badge tone={state.tone}>{state.label}</Badge>
      </div>
      {state.message && <p className="mt-2 text-sm text-slate-700">{state.message}</p>}
      {grant.granted_at && <p className="mt-1 text-xs text-slate-600">Since {formatDate(grant.granted_at)}</p>}
      <div className="mt-4">
        <BenefitContent grant={grant} />
      </div>
      {(isGrantOf(grant, 'discord') || isGrantOf(grant, 'github_repository')) && !grant.is_revoked && (
        <GrantAccountChooser grant={grant} customer={props.customer} />
      )}
    </Card>
  );
}

function BenefitContent({ grant }: { grant: CustomerBenefitGrant }): ReactNode {
  if (isGrantOf(grant, 'license_keys')) {
    const id = grant.properties.license_key_id;
    if (!grant.is_granted || !id)
      return <p className="text-sm text-slate-600">Your license key appears here once it is issued.</p>;
    return <LicenseKeyPanel licenseKeyId={id} />;
  }
  if (isGrantOf(grant, 'custom')) {
    const note = grant.benefit.properties.note;
    return note ? (
      <div className="rounded-md bg-slate-50 p-4 text-sm whitespace-pre-wrap text-slate-900">{note}</div>
    ) : (
      <p className="text-sm text-slate-600">There is no note with this benefit.</p>
    );
  }
  if (isGrantOf(grant, 'downloadables')) return <DownloadableFiles grant={grant} />;
  if (isGrantOf(grant, 'meter_credit')) return <MeterCredit grant={grant} />;
  if (isGrantOf(grant, 'discord'))
    return (
      <dl className="divide-y divide-slate-100">
        <DetailRow label="Discord server">{grant.benefit.properties.guild_id}</DetailRow>
      </dl>
    );
  if (isGrantOf(grant, 'github_repository'))
    return (
      <dl className="divide-y divide-slate-100">
        <DetailRow label="Repository">
          {grant.benefit.properties.repository_owner}/{grant.benefit.properties.repository_name}
        </DetailRow>
      </dl>
    );
  return null;
}

/** The files of the benefit: those granted to the customer, else those the benefit offers now. */
function DownloadableFiles({ grant }: { grant: GrantOf<'downloadables'> }) {
  const files = grant.properties.files ?? grant.benefit.properties.active_files;
  if (files.length === 0) return <p className="text-sm text-slate-600">This benefit has no files at the moment.</p>;
  return (
    <div>
      <p className="text-sm font-medium text-slate-600">
        {files.length === 1 ? 'One file is included' : `${files.length} files are included`}
      </p>
      <ul aria-label="Files" className="mt-2 space-y-1">
        {files.map((file) => (
          <li key={file} className="rounded-md bg-slate-50 px-3 py-2 font-mono text-xs break-all text-slate-800">
            {file}
          </li>
        ))}
      </ul>
    </div>
  );
}

function MeterCredit({ grant }: { grant: GrantOf<'meter_credit'> }) {
  const { units, rollover } = grant.benefit.properties;
  const credited = 'last_credited_units' in grant.properties ? grant.properties : null;
  return (
    <dl className="divide-y divide-slate-100">
      <DetailRow label="Credits per period">{units.toLocaleString()} units</DetailRow>
      <DetailRow label="Unused credits">{rollover ? 'Carried over to the next period' : 'Reset each period'}</DetailRow>
      {credited && (
        <DetailRow label="Last credited">
          {credited.last_credited_units.toLocaleString()} units on {formatDate(credited.last_credited_at)}
        </DetailRow>
      )}
    </dl>
  );
}
