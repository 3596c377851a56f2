import type { Organization } from '@tessera/sdk';
import { Card, CardTitle } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';

/** What an integration needs to name this organization in API calls. */
export function OrganizationIdentifiers({ organization }: { organization: Organization }) {
  return (
    <Card>
      <CardTitle>Identifiers</CardTitle>
      <dl className="space-y-3 text-sm">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <dt className="w-36 font-medium text-slate-600">Organization ID</dt>
          <dd className="flex flex-wrap items-center gap-2">
            <code className="rounded bg-slate-100 px-2 py-1 font-mono text-xs text-slate-900">{organization.id}</code>
            <CopyButton value={organization.id} label="Copy organization ID" />
          </dd>
        </div>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <dt className="w-36 font-medium text-slate-600">Slug</dt>
          <dd>
            <code className="rounded bg-slate-100 px-2 py-1 font-mono text-xs text-slate-900">{organization.slug}</code>
          </dd>
        </div>
      </dl>
    </Card>
  );
}
