import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';
import { DetailRow } from '../../../components/ui/detail-row';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/spinner';
import { TextLink } from '../../../components/ui/text-link';
import { CustomerMetersList } from '../../../features/customer-meters/components/customer-meters-list';
import { CustomerPicker } from '../../../features/customers/components/customer-picker';
import { useMeter } from '../../../features/meters/api/get-meter';
import { MeterFormDialog } from '../../../features/meters/components/meter-form-dialog';
import { MeterQuantities } from '../../../features/meters/components/meter-quantities';
import { describeAggregation, describeFilter } from '../../../features/meters/logic/meter-definition';
import { formatDateTime } from '../../../lib/format';
import { organizationPath, useCurrentOrganization } from './current-organization';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-8 space-y-3">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function Component() {
  const organization = useCurrentOrganization();
  const { meterId = '' } = useParams();
  const meter = useMeter(meterId);
  const [customerId, setCustomerId] = useState<string | null>(null);
  const dashboardPath = organizationPath(organization);
  const back = (
    <Link className="text-sm font-medium text-blue-800 underline" to={organizationPath(organization, '/meters')}>
      ← Meters
    </Link>
  );
  if (meter.isPending) return <Loading label="Loading meter…" />;
  if (meter.isError)
    return (
      <div className="space-y-4">
        {back}
        <ApiErrorAlert error={meter.error} />
      </div>
    );
  const data = meter.data;
  return (
    <>
      {back}
      <div className="mt-3">
        <PageHeader
          title={data.name}
          description={describeAggregation(data.aggregation)}
          actions={
            <MeterFormDialog
              key={data.modified_at ?? data.created_at}
              organizationId={organization.id}
              meter={data}
              trigger={(open) => (
                <Button variant="secondary" onClick={open}>
                  Edit meter
                </Button>
              )}
            />
          }
        />
      </div>
      <Card>
        <CardTitle>Definition</CardTitle>
        <dl className="divide-y divide-slate-100">
          <DetailRow label="Counts">{describeAggregation(data.aggregation)}</DetailRow>
          <DetailRow label="Filter">
            <span className="font-mono text-xs break-words">{describeFilter(data.filter)}</span>
          </DetailRow>
          <DetailRow label="Created">{formatDateTime(data.created_at)}</DetailRow>
          <DetailRow label="Meter ID">
            <span className="inline-flex flex-wrap items-center justify-end gap-2">
              <code className="font-mono text-xs break-all">{data.id}</code>
              <CopyButton value={data.id} label="Copy ID" />
            </span>
          </DetailRow>
        </dl>
        <p className="mt-3 text-sm">
          <TextLink to={`${dashboardPath}/events?meter=${data.id}`}>Events this meter counts</TextLink>
        </p>
      </Card>
      <Section id="meter-quantities" title="Usage">
        <CustomerPicker organizationId={organization.id} onChange={setCustomerId} className="w-full sm:w-72" />
        <MeterQuantities meterId={data.id} meterName={data.name} customerId={customerId ?? undefined} />
      </Section>
      <Section id="meter-customers" title="Customers">
        <p className="text-sm text-slate-600">
          Each customer’s current period: units consumed since the meter’s last reset at renewal, units credited by
          benefits, and what is left.
        </p>
        <CustomerMetersList
          organizationId={organization.id}
          dashboardPath={dashboardPath}
          meterId={data.id}
          label={`Customers of ${data.name}`}
        />
      </Section>
    </>
  );
}
